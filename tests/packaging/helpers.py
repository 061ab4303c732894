"""Reading the deployment files: Dockerfile instructions, compose.yaml, the lock and constraints."""

from __future__ import annotations

import json
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Instruction:
    """One Dockerfile instruction: its keyword (upper case) and its arguments, continuations joined."""

    keyword: str
    args: str

    def exec_form(self) -> list[str] | None:
        """The JSON array of an exec-form instruction, else None (shell form)."""
        text = self.args.strip()
        if not text.startswith("["):
            return None
        value = json.loads(text)
        assert isinstance(value, list) and all(isinstance(v, str) for v in value), text
        return value


def dockerfile(path: Path = ROOT / "Dockerfile") -> list[Instruction]:
    """The instructions in order (comments dropped, ``\\`` continuations joined)."""
    instructions: list[Instruction] = []
    pending = ""
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not pending and (not line or line.startswith("#")):
            continue
        if pending and line.startswith("#"):
            continue  # a comment inside a continued instruction
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        whole = (pending + line).strip()
        pending = ""
        keyword, _, args = whole.partition(" ")
        instructions.append(Instruction(keyword.upper(), args.strip()))
    assert not pending, "the Dockerfile ends inside a continued line"
    return instructions


def final_stage(instructions: list[Instruction]) -> list[Instruction]:
    """The instructions of the last stage (from its FROM on): what the image is."""
    starts = [i for i, ins in enumerate(instructions) if ins.keyword == "FROM"]
    return instructions[starts[-1] :]


def env_of(instructions: list[Instruction]) -> dict[str, str]:
    """Every ``ENV key=value`` set in these instructions."""
    env: dict[str, str] = {}
    for ins in instructions:
        if ins.keyword == "ENV":
            for key, value in re.findall(r"(\w+)=(\S+)", ins.args):
                env[key] = value
    return env


def compose() -> dict[str, Any]:
    """compose.yaml, parsed."""
    import yaml

    data = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def project() -> dict[str, Any]:
    """pyproject.toml's [project] table."""
    with (ROOT / "pyproject.toml").open("rb") as f:
        table = tomllib.load(f)["project"]
    assert isinstance(table, dict)
    return table


def pins(path: Path) -> dict[str, str]:
    """``name==version`` lines of a requirements/constraints file, by canonical name."""
    from packaging.utils import canonicalize_name

    found: dict[str, str] = {}
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.split("#", 1)[0].strip().rstrip("\\").strip()
        match = re.fullmatch(r"([A-Za-z0-9_.\-]+)\s*==\s*([^\s;]+)", line)
        if match:
            found[canonicalize_name(match[1])] = match[2]
    return found
