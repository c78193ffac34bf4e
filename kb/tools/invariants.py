"""`aslkb invariants`: properties of the rules, checked over every situation
of a bounded space, with a counterexample situation when one fails.

An invariant is a plain ASP file, `rules/invariants/NAME.lp` (that folder is
never loaded into queries), with a header and two parts:

    %! invariant NAME
    %! rule E1.14
    %! says a moving vehicle is never harder to see than one standing still
    %! queries drm          (optional: the query programs the property reads)

    % the space: choice rules over the situation facts (docs/design.md §1)
    scenario(night).
    { scenario(nvr, N) : N = 0..6 } = 1.
    ...
    % the property, as the violations it forbids
    violation(short_sight(D, N)) :- wheeled_vehicle_sight(_, _, D), nvr_toward(_, _, N), D < N.

The checker grounds the rules of the edition (common/ and asl/ or sl4/,
`%! edition` in the header, default asl), the interpretations in force (the
defaults, then --interpretation/--without) and the file, and asks clingo for
one model with a `violation/1` atom. None: the property holds over the whole
space. One: its situation facts are the counterexample, printed as the lines
of a situation file where the language has them (scenario, unit, at, range,
los, hex, roll, attack) and as facts otherwise.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import cache

from aslkb.base.errors import UsageError
from aslkb.base.progress import Track, untracked
from aslkb.engine.solve import first_model
from aslkb.knowledge.annotations import read_file
from aslkb.knowledge.asking import rule_statements
from aslkb.knowledge.patterns import term_text
from aslkb.knowledge.program import knowledge_base
from aslkb.knowledge.rulefiles import kb_root, rule_files

# the predicates of a situation (docs/design.md §1): what a counterexample shows
SITUATION = ("scenario/1", "scenario/2", "scenario/3", "hex/2", "hex_attr/2", "hex_attr/3", "unit/3", "strength/2",
             "at/2", "unit_attr/2", "unit_attr/3", "los/3", "los_hindrance/3", "range/3", "attack/1", "attack_by/2",
             "attack_target/2", "attack_attr/2", "attack_attr/3", "attack_kind/2", "attack_hexside/2", "move/3",
             "move_attr/2", "roll/4")


@dataclass
class Invariant:
    name: str
    path: str
    rule: str = ""
    says: str = ""
    edition: str = "asl"
    queries: tuple[str, ...] = ()  # query programs (queries/NAME.lp) the property reads: answer/2, undecided/2


@dataclass
class Report:
    invariant: Invariant
    interpretations: tuple[str, ...]
    violations: list[str] = field(default_factory=list)
    counterexample: list[str] = field(default_factory=list)  # situation lines
    vacuous: bool = False  # the space holds no situation at all

    def to_json(self) -> dict:
        return {"invariant": self.invariant.name, "rule": self.invariant.rule, "says": self.invariant.says,
                "file": self.invariant.path, "interpretations": list(self.interpretations),
                "holds": not self.counterexample and not self.vacuous, "vacuous": self.vacuous,
                "violations": self.violations,
                "counterexample": self.counterexample}


def invariants(root: str | None = None) -> list[Invariant]:
    folder = os.path.join(root or kb_root(), "rules", "invariants")
    found = []
    for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else ():
        if not name.endswith(".lp"):
            continue
        rel = f"rules/invariants/{name}"
        header = read_file(os.path.join(folder, name), rel)
        if not header.values("invariant"):
            continue  # e.g. tables.lp: declarations for the lint
        found.append(Invariant(header.header("invariant"), rel, header.header("rule"), header.header("says"),
                               header.header("edition", "asl"), tuple(header.header("queries").split())))
    return found


def in_force(switch_on: tuple[str, ...], switch_off: tuple[str, ...]) -> tuple[str, ...]:
    known = knowledge_base().interpretations
    chosen = {n for n, i in known.items() if i.default}
    for name in switch_on:
        chosen.add(name)
        chosen -= set(known[name].excludes) if name in known else set()
    chosen -= set(switch_off)
    return tuple(sorted(n for n in chosen if n in known))


def check(invariant: Invariant, interpretations: tuple[str, ...], root: str | None = None) -> Report:
    root = root or kb_root()
    files = rule_files(root)
    paths = [*files["common"], *files[invariant.edition]]
    paths += [p for p in files["interpretations"] if os.path.basename(p)[:-3] in interpretations]
    paths += [os.path.join(root, "queries", f"{name}.lp") for name in invariant.queries]
    report = Report(invariant, interpretations)
    if not _solve(paths, root, invariant, interpretations, "", report):
        report.vacuous = True  # no situation at all: the space is empty, the property says nothing
        return report
    _solve(paths, root, invariant, interpretations, "_violation_found :- violation(_). :- not _violation_found.\n",
           report)
    return report


@cache  # each invariant is solved twice, and they share most files: parsing them is most of a run
def _rule_text(path: str, root: str) -> str:
    """A rule file as the knowledge base runs it (kb/knowledge/asking.py)."""
    return "\n".join(str(statement) for statement in rule_statements(path, root))


def _solve(paths, root, invariant, interpretations, extra: str, report: Report) -> bool:
    """Solve for one model; fill the report's counterexample when it has violations."""
    shows = "".join(f"#show {sig}." for sig in SITUATION)
    program = extra + "#show violation/1.\n" + shows + "".join(f"\ninterpretation({name})." for name in interpretations)
    rules = [_rule_text(path, root) for path in paths]
    with open(os.path.join(root, invariant.path), encoding="utf-8") as handle:
        rules.append(handle.read())  # the invariant itself, an authors' file: as written
    atoms = first_model("\n".join([*rules, program]))
    if atoms is None:
        return False
    violations = sorted(str(a.arguments[0]) for a in atoms if a.name == "violation")
    if violations:
        report.violations = violations
        report.counterexample = situation_lines([a for a in atoms if a.name != "violation"])
    return True


def check_invariants(names: list[str] | None = None, switch_on: tuple[str, ...] = (),
                     switch_off: tuple[str, ...] = (), root: str | None = None,
                     track: Track = untracked) -> list[Report]:
    """`track`: the command's progress over the invariants checked."""
    chosen = [i for i in invariants(root) if not names or i.name in names]
    if names and (missing := set(names) - {i.name for i in chosen}):
        raise UsageError(f"no invariant named {', '.join(sorted(missing))}; "
                         f"known: {', '.join(i.name for i in invariants(root))}")
    forced = in_force(switch_on, switch_off)
    return [check(invariant, forced, root) for invariant in track(chosen, len(chosen), "invariants checked")]


def _word(symbol) -> str:
    return term_text(symbol)


def situation_lines(atoms) -> list[str]:
    """The facts as the lines of a situation file, where the language has them."""
    by_name: dict[str, list] = {}
    for atom in sorted(atoms, key=str):
        by_name.setdefault(f"{atom.name}/{len(atom.arguments)}", []).append(atom.arguments)
    lines: list[str] = []
    scenario = [_word(a[0]) for a in by_name.pop("scenario/1", [])]
    scenario += [f"{_word(a[0])} {_word(a[1])}" for a in by_name.pop("scenario/2", [])]
    scenario += [" ".join(_word(x) for x in a) for a in by_name.pop("scenario/3", [])]
    if scenario:
        lines.append("scenario " + " ".join(scenario))
    hexes = by_name.pop("hex/2", [])
    hex_attrs = by_name.pop("hex_attr/2", []) + by_name.pop("hex_attr/3", [])
    for h, terrain in hexes:
        attrs = [" ".join(_word(x) for x in a[1:]) for a in hex_attrs if a[0] == h]
        lines.append(" ".join(["hex", _word(h), _word(terrain), *attrs]))
    at = {str(a[0]): _word(a[1]) for a in by_name.pop("at/2", [])}
    unit_attrs = by_name.pop("unit_attr/2", []) + by_name.pop("unit_attr/3", [])
    strengths = {str(a[0]): a[1] for a in by_name.pop("strength/2", [])}
    for u, nation, kind in by_name.pop("unit/3", []):
        words = ["unit", _word(u), _word(nation), _word(kind)]
        if str(u) in strengths:
            s = strengths[str(u)]
            words.append("-".join(str(x) for x in s.arguments) if s.name == "squad" else
                         f"{s.arguments[0]}{'+' if s.arguments[1].number > 0 else ''}{s.arguments[1]}")
        if str(u) in at:
            words += ["at", at[str(u)]]
        words += [" ".join(_word(x) for x in a[1:]) for a in unit_attrs if a[0] == u]
        lines.append(" ".join(words))
    attack_by = by_name.pop("attack_by/2", [])
    attack_target = {str(a[0]): _word(a[1]) for a in by_name.pop("attack_target/2", [])}
    attack_kind = {str(a[0]): _word(a[1]) for a in by_name.pop("attack_kind/2", [])}
    attack_attrs = by_name.pop("attack_attr/2", []) + by_name.pop("attack_attr/3", [])
    for (a,) in by_name.pop("attack/1", []):
        words = ["attack", _word(a), "by", ",".join(_word(f) for x, f in attack_by if x == a)]
        if str(a) in attack_target:
            words += ["at", attack_target[str(a)]]
        words += [" ".join(_word(x) for x in row[1:]) for row in attack_attrs if row[0] == a]
        if attack_kind.get(str(a), "smallarms") != "smallarms":
            words.append(attack_kind[str(a)])
        lines.append(" ".join(words))
    for a, b, state in by_name.pop("los/3", []):
        lines.append(f"los {_word(a)} {_word(b)} {_word(state)}")
    for a, b, n in by_name.pop("range/3", []):
        lines.append(f"range {_word(a)} {_word(b)} {n}")
    rolls: dict[tuple, dict] = {}
    for name, subject, face, value in by_name.pop("roll/4", []):
        rolls.setdefault((str(name), str(subject)), {})[str(face)] = value
    for (name, subject), faces in rolls.items():
        who = "" if subject == "none" else f" {subject.strip(chr(34))}"
        dice = f"colored {faces.get('colored')} white {faces.get('white')}" if "colored" in faces \
            else str(faces.get("dr"))
        lines.append(f"roll {name}{who} {dice}")
    for signature, rows in sorted(by_name.items()):
        name = signature.split("/")[0]
        lines += [f"% {name}({', '.join(map(str, row))})." for row in rows]
    return lines


def report_text(reports: list[Report]) -> str:
    lines = []
    for report in reports:
        inv = report.invariant
        head = f"{inv.name} ({inv.rule}): {inv.says}" if inv.rule else f"{inv.name}: {inv.says}"
        if report.vacuous:
            lines.append(f"EMPTY {head}: the space holds no situation ({inv.path})")
            continue
        if not report.counterexample and not report.violations:
            lines.append(f"ok    {head}")
            continue
        lines.append(f"FAIL  {head}  ({inv.path})")
        lines.append(f"      violated: {'; '.join(report.violations)}")
        lines.append(f"      interpretations: {', '.join(report.interpretations) or 'none'}")
        lines.append("      counterexample:")
        lines += [f"        {line}" for line in report.counterexample]
    failed = sum(1 for r in reports if r.counterexample or r.violations or r.vacuous)
    lines.append(f"{len(reports) - failed} invariant{'s' if len(reports) - failed != 1 else ''} hold, "
                 f"{failed} fail")
    return "\n".join(lines)
