"""Small word lists in Dutch, French, German and Spanish for the games' language tests.

The real lexicons of those languages come from another branch; these fakes judge, list and
rank a few dozen folded words, enough for whole games against computer players.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from games.common.languages import Language, language
from games.common.placement import Placement, match_letters
from games.common.words import Verdict, WordRules

GERMAN = """
bär bären käse mädchen hände ärger äpfel übel über tür früh grün müde böse hören öl schön könig
zeit haus hand rat tat art ende rede nase raten tier rot not tod ton ei eis in an um zu da du er es
ja so wo wer was der die das den dem ein eine und ist nie nur alt neu gut bett berg brot buch dach
fisch geld hund kind land licht mann maus nacht rad rand sand see sonne stein tag tisch wald wand
wasser welt wind zug rät tür ära öde üben ähre bäume räte säge täte zähne nähe höhe söhne töne
"""

SPANISH = """
niño niña año años caña baño sueño daño paño uña ñu señor señora mañana piña leña peña moño ñoño
casa mesa sol luna agua pan mar rosa cosa oso ola sal sed red tos dos tres seis uno una el la los
las en de es se te me no si ya yo tu mi su al da va ir ver ser dar ojo oro aire arte ante antes nada
nadie donde tarde noche nota notas santo tanto otro otra rato ratos perro gato pato pera cara caro
carta carne cena cerca cielo cinco clase dedo diente dinero lado leer lento libro lista loco madre
padre nieto nieve norte nuevo ocho oeste piso plato poco puerta queso radio rico rio roca rojo ropa
sala salto seco silla sitio sopa tarea techo tela tema tiempo tierra tio toro torre vaso vela verde
vida vino ciento cuento suelo todo toda cada pie son sin con por para tan tal mas ni ti le lo
"""

FRENCH = """
ete eté été cafe chat chien lune soleil mer terre eau feu air vent rue porte table livre mot mots
rose roses arbre fleur maison jardin ami amie amis temps tout tous rien bien mais donc car oui non
le la les un une des de du et est en au aux il elle on nous vous ils sur sous dans par pour avec
sans tres plus moins art arts rat rats tas sot sol sel ses son sa se sera sort sorte tarte terre
rite rire dire dites lire lit lits nuit nuits noir noire rond ronde onde ondes ton tons note notes
reste tenir venir unir oser ruse rue rues sucre tenue toute route routes sortie nature
kilo kiwi kir wagon whisky yeux yoga zoo zero zone jeu jeux jus joue jour juge que qui quoi quel
quai queue fixe taxi luxe deux vieux doux houx hiver hier haut bas bon bonne beau belle bleu blanc
vert gris cafe the lait pain vin sel poivre pomme poire prune figue melon citron ville pays champ
bois foret lac mont val vague plage sable ciel nuage pluie neige givre froid chaud doigt main pied
tete nez bouche oeil oreille dent dos bras cou coeur ame vie mort amour peur joie rage paix guerre
roi reine prince page chef maitre homme femme fils fille pere mere frere soeur oncle tante ange
bec cage duc gel gag hip job kit mac nib pub ski vip wok yak zut bic dock flic gym hop jazz
"""

DUTCH = """
huis kat hond boom water vuur lucht aarde zon maan ster dag nacht tijd jaar week uur man vrouw kind
ijs ijzer rijk tijd lijn wijn zijn mijn dijk prijs reis stad land boek tafel stoel deur raam dak
een de het en in op aan is te dat die van met voor niet ook als dan toen nu hier daar wie wat rood
"""


class FakeLexicon:
    """A judge and word list over a few folded words of one language (``language`` as the real
    lexicon has it): ``judge``, ``examples``, ``words``, ``zipf``."""

    def __init__(self, code: str, words: Iterable[str]) -> None:
        self.language: Language = language(code)
        folded = {self.language.fold(w) for w in words}
        self.entries = frozenset(w for w in folded if w is not None)

    def judge(self, word: str, rules: WordRules) -> Verdict:
        folded = self.language.fold(word, multiword=True) or ""
        if folded in rules.banned:
            return Verdict(False, "banned", f"{folded.upper()} is banned here.")
        if len(folded.replace(" ", "")) < rules.min_length:
            return Verdict(False, "too-short", f"{folded.upper()} is too short.")
        if folded in self.entries or folded in rules.added:
            return Verdict(True, None, f"{folded.upper()} is a word.")
        return Verdict(False, "unknown", f"{folded.upper()} isn't in the dictionary.")

    def examples(
        self,
        letters: Sequence[str],
        rules: WordRules,
        placement: Placement = Placement.ANYWHERE,
        limit: int = 3,
    ) -> list[str]:
        found = [
            w
            for w in sorted(self.entries | rules.added)
            if match_letters(w, letters, placement).ok and self.judge(w, rules).ok
        ]
        found.sort(key=lambda w: (-sum(match_letters(w, letters, placement).claimed.values()), w))
        return found[:limit]

    def words(self, dictionary: str | None = None) -> list[str]:
        return sorted(self.entries)

    def zipf(self, word: str) -> float:
        return 4.0 if word in self.entries else 0.0


def fake(code: str) -> FakeLexicon:
    """The fake lexicon of ``code`` (``de``, ``es``, ``fr``, ``nl``)."""
    text = {"de": GERMAN, "es": SPANISH, "fr": FRENCH, "nl": DUTCH}[code]
    return FakeLexicon(code, text.split())
