"""The situation language parser: facts, queries, expectations and errors."""

from __future__ import annotations

import tomllib
from fractions import Fraction
from importlib.resources import files

import clingo
import pytest

from aslkb.base.errors import SituationError

from aslkb.parser import UNDECIDED, parse, parse_file

SPEC_EXAMPLE = """\
# A Normal German squad wants to move at night; will it Stray?
edition asl
scenario night nvr 2 year 1944 gunflash_placed
hex 3G5 woods
unit G1 german squad 4-6-7 at 3G4
unit R1 russian squad 4-4-7 at 3G7
range G1 R1 3
move M1 G1 to 3G5
roll movement G1 colored 6 white 4

query night_class G1
query strays G1
query mf_cost M1
expect strays G1
expect mf_cost M1 = 3
"""

# Units, an attack and a move that the snippets below may refer to.
BASE = """\
unit G1 german squad 4-6-7 at 3G4
unit G2 german squad 4-6-7 at 3G4
unit L1 german leader 8-1 at 3G4
unit R1 russian squad 4-4-7 at 3G7
attack A1 by G1 at R1
move M1 G1 to 3G5
fortification F1 german pillbox at 3G4
"""
BASE_LINES = BASE.count("\n")

CATALOG = tomllib.loads((files("aslkb.queries") / "catalog.toml").read_text(encoding="utf-8"))


def facts(text: str) -> list[str]:
    return [str(f.symbol) for f in parse(text).facts]


def new_facts(snippet: str) -> list[str]:
    """The facts a snippet adds to BASE."""
    before = set(facts(BASE))
    return [f for f in facts(BASE + snippet) if f not in before]


def error(text: str) -> SituationError:
    with pytest.raises(SituationError) as info:
        parse(text, "case.sit")
    return info.value


# --- the spec's complete example ---------------------------------------------------

def test_complete_example_facts():
    assert facts(SPEC_EXAMPLE) == [
        "edition(asl)",
        "scenario(night)",
        "scenario(nvr,2)",
        "scenario(year,1944)",
        "scenario(gunflash_placed)",
        'hex("3G5",woods)',
        'unit("G1",german,squad)',
        'strength("G1",squad(4,6,7))',
        'at("G1","3G4")',
        'unit("R1",russian,squad)',
        'strength("R1",squad(4,4,7))',
        'at("R1","3G7")',
        'range(unit("G1"),unit("R1"),3)',
        'move("M1","G1","3G5")',
        'roll(movement,"G1",colored,6)',
        'roll(movement,"G1",white,4)',
    ]


def test_complete_example_queries_and_expectations():
    s = parse(SPEC_EXAMPLE, "night.sit")
    assert s.filename == "night.sit"
    assert (s.edition, s.edition_line, s.interpretations) == ("asl", 2, [])
    assert [(q.text, str(q.symbol), q.line, q.column) for q in s.queries] == [
        ("night_class G1", 'night_class("G1")', 11, 7),
        ("strays G1", 'strays("G1")', 12, 7),
        ("mf_cost M1", 'mf_cost("M1")', 13, 7),
    ]
    assert [(e.query.text, e.expected, e.line, e.column) for e in s.expects] == [
        ("strays G1", True, 14, 1),
        ("mf_cost M1", 3, 15, 1),
    ]
    assert not any(f.symbol.name == "query" for f in s.facts)


def test_facts_carry_their_position():
    s = parse(SPEC_EXAMPLE)
    where = {str(f.symbol): (f.line, f.column) for f in s.facts}
    assert where["edition(asl)"] == (2, 9)
    assert where["scenario(nvr,2)"] == (3, 16)
    assert where['at("G1","3G4")'] == (5, 31)


# --- design.md section 1, statement by statement -------------------------------------

@pytest.mark.parametrize("snippet, expected", [
    ("scenario night dyo\n", ["scenario(night)", "scenario(dyo)"]),
    ("scenario nvr 3 month june weather falling_snow\n",
     ["scenario(nvr,3)", "scenario(month,june)", "scenario(weather,falling_snow)"]),
    ("scenario san russian 3 majority german lax attacker german\n",
     ["scenario(san,russian,3)", "scenario(majority,german,lax)", "scenario(attacker,german)"]),
    ("hex 3G6 woods level 1 illuminated\n",
     ['hex("3G6",woods)', 'hex_attr("3G6",level,1)', 'hex_attr("3G6",illuminated)']),
    ("hex 3G6 building bldg B1 gunflash tem -1\n",
     ['hex("3G6",building)', 'hex_attr("3G6",bldg,"B1")', 'hex_attr("3G6",gunflash)',
      'hex_attr("3G6",tem,-1)']),
    ("unit G3 german squad 4-6-7 at 3G4 level 1 broken us 2\n",
     ['unit("G3",german,squad)', 'strength("G3",squad(4,6,7))', 'at("G3","3G4")',
      'unit_attr("G3",level,1)', 'unit_attr("G3",broken)', 'unit_attr("G3",us,2)']),
    ("unit L2 german leader 10-2\n", ['unit("L2",german,leader)', 'strength("L2",leader(10,-2))']),
    ("unit L2 german leader 7-0\n", ['unit("L2",german,leader)', 'strength("L2",leader(7,0))']),
    ("unit H1 american hero 6+1\n", ['unit("H1",american,hero)', 'strength("H1",leader(6,1))']),
    ("unit C1 italian crew 2-2-6\n", ['unit("C1",italian,crew)', 'strength("C1",squad(2,2,6))']),
    ("unit V1 german vehicle at 3G4 afv bu\n",
     ['unit("V1",german,vehicle)', 'at("V1","3G4")', 'unit_attr("V1",afv)', 'unit_attr("V1",bu)']),
    ("los G1 3G7 clear\n", ['los(unit("G1"),hex("3G7"),clear)']),
    ("los G1 R1 blocked\n", ['los(unit("G1"),unit("R1"),blocked)']),
    ("los G1 R1 hindrance 2\n",
     ['los(unit("G1"),unit("R1"),hindrance)', 'los_hindrance(unit("G1"),unit("R1"),2)']),
    ("range G1 R1 3\n", ['range(unit("G1"),unit("R1"),3)']),
    ("attack A2 by G1,G2 at R1 fp 8 mg\n",
     ['attack("A2")', 'attack_by("A2","G1")', 'attack_by("A2","G2")',
      'attack_target("A2",unit("R1"))', 'attack_kind("A2",mg)', 'attack_attr("A2",fp,8)']),
    ("attack A2 by G1 at 3G7\n",
     ['attack("A2")', 'attack_by("A2","G1")', 'attack_target("A2",hex("3G7"))',
      'attack_kind("A2",smallarms)']),
    ("attack A2 by G1, G2 at R1 directed_by L1 hexside 3 hexside 4\n",
     ['attack("A2")', 'attack_by("A2","G1")', 'attack_by("A2","G2")',
      'attack_target("A2",unit("R1"))', 'attack_kind("A2",smallarms)',
      'attack_attr("A2",directed_by,"L1")', 'attack_hexside("A2",3)', 'attack_hexside("A2",4)']),
    ("attack A2 by G1 at R1 ordnance range 2 pbf ha_tem wa_bocage captured_mg\n",
     ['attack("A2")', 'attack_by("A2","G1")', 'attack_target("A2",unit("R1"))',
      'attack_kind("A2",ordnance)', 'attack_attr("A2",range,2)', 'attack_attr("A2",pbf)',
      'attack_attr("A2",ha_tem)', 'attack_attr("A2",wa_bocage)', 'attack_attr("A2",captured_mg)']),
    ("move M2 G1 to 3G5 assault crest\n",
     ['move("M2","G1","3G5")', 'move_attr("M2",assault)', 'move_attr("M2",crest)']),
    ("move M2 G1 to 3G5 cost 2.5\n",  # extension: the daytime MF/MP cost (E1.51, E1.52)
     ['move("M2","G1","3G5")', 'move_attr("M2",cost,frac(5,2))']),
    ("roll movement G1 colored 6 white 4\n",
     ['roll(movement,"G1",colored,6)', 'roll(movement,"G1",white,4)']),
    ("roll concealment G1 3\n", ['roll(concealment,"G1",dr,3)']),
    ("roll nvr_table colored 4 white 2\n",
     ["roll(nvr_table,none,colored,4)", "roll(nvr_table,none,white,2)"]),
    ("roll ift A1 colored 1 white 1\n", ['roll(ift,"A1",colored,1)', 'roll(ift,"A1",white,1)']),
])
def test_statement_facts(snippet, expected):
    assert new_facts(snippet) == expected


def test_edition():
    assert facts("")[0] == "edition(asl)"
    s = parse("\n\nedition sl4\n")
    assert (s.edition, s.edition_line, str(s.facts[0].symbol)) == ("sl4", 3, "edition(sl4)")
    assert parse("").facts[0].line == 0


def test_decimals_become_fractions():
    assert new_facts("attack A2 by G1 at R1 fp 2.5\n")[-1] == 'attack_attr("A2",fp,frac(5,2))'
    assert new_facts("attack A2 by G1 at R1 fp 0.25\n")[-1] == 'attack_attr("A2",fp,frac(1,4))'
    assert new_facts("attack A2 by G1 at R1 fp 1.5\n")[-1] == 'attack_attr("A2",fp,frac(3,2))'
    assert new_facts("attack A2 by G1 at R1 fp 2.0\n")[-1] == 'attack_attr("A2",fp,2)'
    s = parse(BASE + "expect fp A1 = 2.5\n")
    assert s.expects[0].expected == Fraction(5, 2)
    # a whole decimal is the integer, in an expected answer too (the canonical printer writes it so)
    s = parse(BASE + "expect fp A1 = 2.0\nexpect base_nvr = 3.0\n")
    assert [(e.expected, type(e.expected)) for e in s.expects] == [(2, int), (3, int)]


def test_symmetry_is_not_the_parsers_job():
    assert new_facts("range G1 R1 3\nlos R1 G1 clear\n") == [
        'range(unit("G1"),unit("R1"),3)', 'los(unit("R1"),unit("G1"),clear)']


def test_repeated_facts_are_given_once():
    assert facts("scenario night\nscenario night nvr 2 nvr 2\n") == [
        "edition(asl)", "scenario(night)", "scenario(nvr,2)"]


def test_statement_order_does_not_matter():
    early = "attack A1 by G1 at R1\nrange G1 R1 2\nunit G1 german squad\nunit R1 russian squad\n"
    assert 'attack_target("A1",unit("R1"))' in facts(early)
    assert 'range(unit("G1"),unit("R1"),2)' in facts(early)


# --- every attribute of the spec ----------------------------------------------------

SCENARIO_ATTRS = [
    "night", "day", "nvr 2", "dyo", "month january", "month december", "year 1944",
    "weather clear", "weather overcast", "weather falling_snow", "weather rain", "weather mud",
    "snow none", "snow ground", "snow deep",
    "ec very_dry", "ec dry", "ec moist", "ec wet", "ec mud",
    "desert_boards none", "desert_boards some", "desert_boards all",
    "region europe", "region north_africa", "region middle_east", "region mediterranean",
    "region east_africa", "steppe",
    "time early_morning", "time late_afternoon", "time midday",
    "heat_haze normal", "heat_haze intense",
    "dust none", "dust light", "dust moderate", "dust heavy", "dust very_heavy",
    "dust extremely_heavy",
    "wind none", "wind mild_breeze", "wind breeze", "wind heavy_wind", "gusts",
    "clouds none", "clouds scattered", "clouds overcast",
    "moon none", "moon half", "moon full", "iift", "starshell_fired", "gunflash_placed",
    "attacker german", "defender russian", "san russian 3", "majority german lax",
    "majority russian normal", "majority american stealthy",
    "turn 1", "turn 12", "player_turn first", "player_turn second",
]
HEX_TERRAINS = ["open", "woods", "building", "brush", "grain", "orchard", "marsh", "rubble",
                "road", "desert_open"]
HEX_ATTRS = ["level 1", "height 2", "tem 1", "hindrance 1", "illuminated", "blaze 2",
             "interior", "starshell", "ir", "bldg B2", "gunflash"]
NATIONS = ["german", "russian", "american", "british", "finnish", "italian", "japanese",
           "partisan", "axis_minor", "allied_minor", "french", "polish", "chinese",
           "canadian", "anzac"]
UNIT_KINDS = ["squad", "halfsquad", "crew", "leader", "hero", "vehicle", "gun", "cloaking"]
UNIT_ATTRS = [
    "level 1", "concealed", "hidden", "cloaked", "dummy", "broken", "berserk", "pinned", "ti",
    "cx", "dm", "heroic", "inexperienced", "elite", "first_line", "second_line", "green",
    "conscript", "commando", "ranger", "gurkha", "anzac", "lax", "normal", "stealthy",
    "moved", "moving", "fired", "tracked", "wheeled", "afv", "bu", "ce", "in_motion",
    "radio", "changing_vca", "us 3", "encircled", "not_encircled", "pillbox", "fanatic", "searching", "aircraft",
]
ATTACK_ATTRS = ["fp 4", "range 2", "pbf", "tpbf", "long_range", "directed_by L1",
                "hexside 6", "ha_tem", "wa_bocage", "captured_mg", "barrage", "harassing_fire",
                "critical_hit", "hit", "nmc_possible", "mph", "vertex 2", "mc 1", "previous_player_turn"]
ATTACK_KINDS = ["smallarms", "mg", "ordnance", "oba", "fire_lane", "residual", "sniper",
                "cc", "dc", "mines", "specific_collateral", "ft"]
MOVE_ATTRS = ["assault", "crest", "bypass", "open_ground_hexside", "from_start"]


def _fact_for(predicate: str, owner: str, attr: str) -> str:
    name, *value = attr.split()
    if not value:
        return f'{predicate}({owner},{name})'
    v = value[0] if value[0][0].isdigit() or value[0][0] == "-" else f'"{value[0]}"'
    return f'{predicate}({owner},{name},{v})'


@pytest.mark.parametrize("attr", SCENARIO_ATTRS)
def test_every_scenario_attribute(attr):
    words = attr.split()
    args = ",".join(w for w in words)
    assert new_facts(f"scenario {attr}\n") == [f"scenario({args})"]


@pytest.mark.parametrize("terrain", HEX_TERRAINS)
def test_every_terrain(terrain):
    assert new_facts(f"hex 3G6 {terrain}\n") == [f'hex("3G6",{terrain})']


@pytest.mark.parametrize("attr", HEX_ATTRS)
def test_every_hex_attribute(attr):
    assert new_facts(f"hex 3G6 open {attr}\n")[1] == _fact_for("hex_attr", '"3G6"', attr)


@pytest.mark.parametrize("nation", NATIONS)
def test_every_nation(nation):
    assert new_facts(f"unit X german squad\nscenario attacker {nation}\nquery san {nation}\n") \
        == ['unit("X",german,squad)', f"scenario(attacker,{nation})"]


def test_gurkha_is_not_a_nation():
    assert "unknown nation 'gurkha'" in error("unit X gurkha squad\n").message


@pytest.mark.parametrize("kind", UNIT_KINDS)
def test_every_unit_kind(kind):
    assert new_facts(f"unit X german {kind}\n") == [f'unit("X",german,{kind})']


@pytest.mark.parametrize("attr", UNIT_ATTRS)
def test_every_unit_attribute(attr):
    assert new_facts(f"unit X german squad {attr}\n")[1] == _fact_for("unit_attr", '"X"', attr)


def test_aboard_names_the_vehicle_a_unit_rides():
    added = new_facts("unit V1 german vehicle\nunit P1 german squad 4-6-7 aboard V1\n")
    assert 'unit_attr("P1",aboard,"V1")' in added


def test_aboard_an_undefined_unit_is_refused():
    e = error("unit P1 german squad 4-6-7 aboard V9\n")
    assert (e.line, e.column) == (1, 35) and "'V9' is not defined" in e.message


@pytest.mark.parametrize("attr", ATTACK_ATTRS)
def test_every_attack_attribute(attr):
    added = new_facts(f"attack A2 by G1 at R1 {attr}\n")
    if attr.startswith("hexside"):
        assert added[-1] == 'attack_hexside("A2",6)'
    elif attr.startswith("vertex"):
        assert added[-1] == 'attack_vertex("A2",2)'
    else:
        assert added[-1] == _fact_for("attack_attr", '"A2"', attr)


@pytest.mark.parametrize("kind", ATTACK_KINDS)
def test_every_attack_kind(kind):
    assert f'attack_kind("A2",{kind})' in new_facts(f"attack A2 by G1 at R1 {kind}\n")


@pytest.mark.parametrize("attr", MOVE_ATTRS)
def test_every_move_attribute(attr):
    assert new_facts(f"move M2 G1 to 3G5 {attr}\n")[1] == f'move_attr("M2",{attr})'


# --- desert extensions (F11) ----------------------------------------------------------

@pytest.mark.parametrize("direction", ["north", "northeast", "east", "southeast", "south",
                                       "southwest", "west", "northwest"])
def test_attack_direction(direction):  # extension: the compass direction of fire (F11.611)
    assert new_facts(f"attack A2 by G1 at R1 direction {direction}\n")[-1] == \
        f'attack_attr("A2",direction,{direction})'


def test_wind_change():  # extension: the Wind after each Wind Change DR (F11.76)
    assert new_facts("wind_change 2 heavy_wind\nwind_change 1 mild_breeze gusts\n") == [
        "wind_change(2,heavy_wind)", "wind_change(1,mild_breeze)", "wind_change_gusts(1)"]


@pytest.mark.parametrize("snippet, column, message", [
    ("wind_change 0 breeze\n", 13, "wind_change 0: the Wind Change DR are numbered 1, 2, 3"),
    ("wind_change 1.5 breeze\n", 13, "wind_change 1.5: the Wind Change DR are numbered"),
    ("wind_change 1 breeze\nwind_change 1 breeze\n", 13, "wind_change 1 is given twice (first at line"),
    ("wind_change 1 breeze\nwind_change 3 breeze\n", 13, "wind_change 3 needs wind_change 2: number"),
    ("wind_change 1 gale\n", 15, "expected one of breeze, heavy_wind, mild_breeze, none after"),
])
def test_wind_change_errors(snippet, column, message):
    e = error(snippet)
    assert e.column == column and message in e.message


# --- rolls and queries from the catalog ---------------------------------------------

SUBJECT = {"none": ("", "none"), "unit": ("G1 ", '"G1"'), "attack": ("A1 ", '"A1"')}


# --- phases (issue 34) -----------------------------------------------------------------

PHASES = ["rally", "prep_fire", "movement", "defensive_fire", "advancing_fire", "rout", "advance",
          "close_combat"]


@pytest.mark.parametrize("phase", PHASES)
def test_every_phase(phase):
    assert new_facts(f"phase {phase}\n") == [f"phase({phase})"]
    assert new_facts(f"phase {phase} russian\n") == [f"phase({phase})", "phasing(russian)"]


@pytest.mark.parametrize("phase", PHASES)
def test_an_attacks_phase_is_a_keyword(phase):
    assert new_facts(f"attack A2 by G1 at R1 phase {phase} previous_player_turn\n")[-2:] == [
        f'attack_attr("A2",phase,{phase})', 'attack_attr("A2",previous_player_turn)']


def test_an_attack_in_the_phase_asked_or_before_it():
    assert 'attack_attr("A2",phase,movement)' in new_facts("phase movement\nattack A2 by G1 at R1 phase movement\n")
    assert 'attack_attr("A2",phase,prep_fire)' in new_facts("phase rout\nattack A2 by G1 at R1 phase prep_fire\n")
    # one of the preceding Player Turn may have been made in any phase
    assert 'attack_attr("A2",phase,close_combat)' in new_facts(
        "phase rally\nattack A2 by G1 at R1 phase close_combat previous_player_turn\n")


@pytest.mark.parametrize("snippet, line, column, message", [
    ("phase rally\nphase movement\n", 2, 7,
     "phase is given twice (first at line 8: phase rally): a file asks its questions in one phase"),
    ("phase rally\nphase rally german\n", 2, 7, "phase is given twice (first at line 8: phase rally)"),
    ("phase lunch\n", 1, 7, "expected one of advance, advancing_fire, close_combat, defensive_fire, movement, "
                            "prep_fire, rally, rout after 'phase', got 'lunch'"),
    ("phase rally germany\n", 1, 13, "unknown nation 'germany' (did you mean 'german'?)"),
    ("phase rally german russian\n", 1, 20, "expected end of line after 'german', got 'russian'"),
    ("phase\n", 1, 6, "after 'phase'"),
    ("phase movement\nattack A2 by G1 at R1 phase advancing_fire\n", 2, 29,
     "attack A2 is made in the advancing_fire phase, after the phase the file asks in (movement, line 8): "
     "add previous_player_turn to the attack if it was made in the preceding Player Turn"),
    ("attack A2 by G1 at R1 phase fire\n", 1, 29, "got 'fire'"),
    ("attack A2 by G1 at R1 phase rally phase rout\n", 1, 41,
     "attack A2 phase is given twice with different values: rout here, rally at line"),
    ("scenario turn 0\n", 1, 15, "scenario turn 0: Game Turns are numbered 1, 2, 3 ... (1 is the opening Game Turn)"),
    ("scenario turn 1.5\n", 1, 15, "scenario turn 1.5: Game Turns are numbered"),
    ("scenario turn 2 turn 3\n", 1, 22, "scenario turn is given twice with different values: 3 here, 2 at line"),
    ("scenario player_turn third\n", 1, 22, "expected one of first, second after 'player_turn', got 'third'"),
])
def test_phase_errors_are_located(snippet, line, column, message):
    e = error(BASE + snippet)
    assert (e.line - BASE_LINES, e.column) == (line, column) and message in e.message, (e.line, e.column, e.message)


def test_a_file_without_a_phase_states_none():
    assert not [f for f in facts(BASE) if f.startswith(("phase", "phasing"))]


@pytest.mark.parametrize("name", sorted(CATALOG["roll"]))
def test_every_catalog_roll_parses_in_its_form(name):
    spec = CATALOG["roll"][name]
    written, subject = SUBJECT[spec["subject"]]
    if spec["dice"] == "DR":
        assert new_facts(f"roll {name} {written}colored 5 white 2\n") == [
            f"roll({name},{subject},colored,5)", f"roll({name},{subject},white,2)"]
    else:
        assert new_facts(f"roll {name} {written}5\n") == [f"roll({name},{subject},dr,5)"]


ARGUMENTS = {  # kind -> (as written, as a symbol)
    "unit": ("G1", '"G1"'), "attack": ("A1", '"A1"'), "move": ("M1", '"M1"'),
    "fortification": ("F1", '"F1"'), "attack_or_unit": ("A1", '"A1"'),
    "hex": ("3G5", '"3G5"'), "target": ("R1", 'unit("R1")'), "nation": ("german", "german"),
    "source": ("night_lv", "night_lv"), "keyword": ("sun_blindness", "sun_blindness"),
}


def _calls(name: str):
    """Every valid way to call a catalog query: with and without optional arguments."""
    kinds = CATALOG["query"][name]["args"]
    required = [k for k in kinds if not k.endswith("?")]
    for n in range(len(required), len(kinds) + 1):
        args = [ARGUMENTS[k.rstrip("?")] for k in kinds[:n]]
        text = " ".join([name, *(a for a, _ in args)])
        symbol = f"{name}({','.join(s for _, s in args)})" if args else name
        yield text, symbol


@pytest.mark.parametrize("text, symbol",
                         [c for name in sorted(CATALOG["query"]) for c in _calls(name)])
def test_every_catalog_query_parses(text, symbol):
    s = parse(BASE + f"query {text}\n")
    (q,) = s.queries
    assert (q.text, str(q.symbol), q.line, q.column) == (text, symbol, BASE_LINES + 1, 7)
    assert q.name == text.split()[0] and q.symbol == clingo.Function(q.name, q.args)


def test_an_attack_or_unit_argument_takes_either_and_names_what_else_it_got():
    """creates_gunflash asks of an attack or of a unit (E1.94's Kindler); ids are unique across kinds."""
    assert str(parse(BASE + "query creates_gunflash G1\n").queries[0].symbol) == 'creates_gunflash("G1")'
    assert str(parse(BASE + "query creates_gunflash A1\n").queries[0].symbol) == 'creates_gunflash("A1")'
    assert "not an attack or a unit" in str(error(BASE + "query creates_gunflash M1\n"))
    assert "is not defined" in str(error(BASE + "query creates_gunflash X9\n"))


def test_kindling_and_ptc_are_attributes():
    assert 'unit_attr("K9",kindling)' in new_facts("unit K9 german squad 4-6-7 kindling\n")
    assert 'attack_attr("A9",ptc)' in new_facts("attack A9 by G1 at R1 ptc\n")


def test_fortification_statement_gives_its_facts():
    assert new_facts("fortification P2 russian foxhole at 3G7 hidden tem_used\n") == [
        'fortification("P2",russian,foxhole)', 'fortification_at("P2","3G7")',
        'fortification_attr("P2",hidden)', 'fortification_attr("P2",tem_used)']


def test_fortification_errors_name_the_place():
    assert "already defined as a unit" in str(error(BASE + "fortification G1 german pillbox at 3G4\n"))
    assert "is a fortification" in str(error(BASE + "query search_reveals F1\n"))
    err = error(BASE + "fortification P2 german bunker at 3G4\n")
    assert (err.line, err.column) == (BASE_LINES + 1, 25)


def test_target_argument_may_be_a_hex():
    (q,) = parse(BASE + "query within_nvr G1 3G7\n").queries
    assert str(q.symbol) == 'within_nvr("G1",hex("3G7"))'


def test_query_text_is_whitespace_normalised():
    (q,) = parse(BASE + "query   drm\tA1    night_lv   # the LV part\r\n").queries
    assert q.text == "drm A1 night_lv"
    assert str(q.symbol) == 'drm("A1",night_lv)'


# --- expectations --------------------------------------------------------------------

@pytest.mark.parametrize("line, expected", [
    ("expect strays G1", True),
    ("expect not strays G1", False),
    ("expect strays G1 = yes", True),
    ("expect strays G1 = no", False),
    ("expect strays G1 = undecided", UNDECIDED),
    ("expect drm A1 = -2", -2),
    ("expect mf_cost M1 = 1.5", Fraction(3, 2)),
    ("expect night_class G1 = stealthy", "stealthy"),
    ("expect jitter_fire G1 = []", ()),
    ("expect jitter_fire G1 = [G2, R1]", ("G2", "R1")),
    ("expect jitter_fire G1 = [G2]", ("G2",)),
])
def test_expect_forms(line, expected):
    (e,) = parse(BASE + line + "\n").expects
    assert e.expected == expected and type(e.expected) is type(expected)
    assert (e.line, e.column) == (BASE_LINES + 1, 1)


# --- ids, hexes and ASP safety -----------------------------------------------------------

def test_a_unit_id_wins_over_a_hex_id():
    text = ("hex R2 open\nunit R1 russian squad\nunit G1 german squad\n"
            "range G1 R1 2\nrange G1 R2 3\nrange G1 3R1 4\n")
    assert facts(text)[-3:] == [
        'range(unit("G1"),unit("R1"),2)',
        'range(unit("G1"),hex("R2"),3)',
        'range(unit("G1"),hex("3R1"),4)',
    ]


def test_hex_ids():
    for hex_id in ["3R6", "13I4", "T7", "GG10"]:
        assert new_facts(f"hex {hex_id} open\n") == [f'hex("{hex_id}",open)']


def test_keywords_are_not_reserved_where_an_id_is_expected():
    text = "unit night german squad\nunit fp german squad\nquery fp A\nattack A by night at fp fp 2\n"
    assert facts(text)[1:] == [
        'unit("night",german,squad)', 'unit("fp",german,squad)', 'attack("A")',
        'attack_by("A","night")', 'attack_target("A",unit("fp"))', 'attack_kind("A",smallarms)',
        'attack_attr("A",fp,2)']


def test_ids_are_strings_never_asp():
    added = parse("unit script german squad\nunit include german squad\nunit a_b german squad\n")
    for f in added.facts[1:]:
        assert f.symbol.arguments[0].type == clingo.SymbolType.String
    assert [f.symbol.arguments[0].string for f in added.facts[1:]] == ["script", "include", "a_b"]


@pytest.mark.parametrize("text, line, column", [
    ("unit x).#script(python) german squad\n", 1, 6),
    ("unit G1 german squad\nattack A1 by G1 at x).#script(python)\n", 2, 20),
    ("unit G1 german squad\nquery strays x).#script(python)\n", 2, 14),
    ('unit "G1" german squad\n', 1, 6),
])
def test_asp_injection_is_refused(text, line, column):
    e = error(text)
    assert (e.filename, e.line, e.column) == ("case.sit", line, column)
    assert str(e).startswith(f"case.sit:{line}:{column}: ")


# --- shape: comments, blank lines, line endings -------------------------------------------

def test_comments_blank_lines_crlf_and_trailing_space():
    text = "# heading\r\n\r\n   \r\nunit G1 german squad   # a squad  \r\nhex 3G5 woods\t\r\n# end"
    assert facts(text) == ['edition(asl)', 'unit("G1",german,squad)', 'hex("3G5",woods)']


def test_parse_file(tmp_path):
    path = tmp_path / "a.sit"
    path.write_bytes(b"\xef\xbb\xbfunit G1 german squad\r\nquery strays G1\r\n")
    s = parse_file(path)
    assert s.filename == str(path) and s.queries[0].line == 2


def test_invalid_utf8_is_located(tmp_path):
    path = tmp_path / "bad.sit"
    path.write_bytes("unit G1 german squad\nhex 3G5 wööds \xff\n".encode("utf-8").replace(b"\xc3\xbf", b"\xff"))
    with pytest.raises(SituationError) as info:
        parse_file(path)
    e = info.value
    assert (e.line, e.column) == (2, 15)
    assert "invalid UTF-8" in e.message and str(e).startswith(f"{path}:2:15: ")


# --- interpretations -----------------------------------------------------------------------

def test_interpretations():
    s = parse("interpretation nvr_row5_overcast_no_moon\ninterpretation other off\n"
              "interpretation third on\ninterpretation third\n")
    assert [(i.name, i.on, i.line) for i in s.interpretations] == [
        ("nvr_row5_overcast_no_moon", True, 1), ("other", False, 2), ("third", True, 3)]


# --- errors: position and message ------------------------------------------------------------

L = BASE_LINES + 1  # the line of the snippet after BASE


@pytest.mark.parametrize("snippet, line, column, message", [
    # unknown statement, attribute, keyword
    ("foo bar\n", L, 1, "unknown statement 'foo'; expected a statement (attack, edition,"),
    ("scenario nite\n", L, 10, "unknown scenario attribute 'nite' (did you mean 'night'?); "
                               "expected a scenario attribute (attacker, clouds,"),
    ("hex 3G6 woods lvl 2\n", L, 15, "unknown hex attribute 'lvl' (did you mean 'level'?)"),
    ("unit G3 german squad at 3G4 brokn\n", L, 29,
     "unknown unit attribute 'brokn' (did you mean 'broken'?); expected a unit attribute (aboard, afv,"),
    ("unit G3 german squad brokenx\n", L, 22, "unknown unit attribute 'brokenx'"),
    ("attack A2 by G1 at R1 zz\n", L, 23, "unknown attack attribute 'zz'; expected an attack attribute"),
    ("move M2 G1 to 3G5 fast\n", L, 19, "unknown move attribute 'fast'; expected a move attribute "
                                        "(assault, bypass, cost, crest, from_start, open_ground_hexside, split)"),
    ("unit G3 germn squad\n", L, 9, "unknown nation 'germn' (did you mean 'german'?)"),
    ("unit G3 german tank\n", L, 16, "unknown unit kind 'tank'"),
    ("hex 3G6 forest\n", L, 9, "unknown terrain 'forest'"),
    ("scenario weather sunny\n", L, 18,
     "expected one of clear, falling_snow, mud, overcast, rain after 'weather', got 'sunny'"),
    ("hex 3G6 woods level x\n", L, 21, "expected a number after 'level', got 'x'"),
    ("los G1 R1 hindrance\n", L, 20, "expected a number after 'hindrance', got end of line"),
    ("unit G3 german\n", L, 15, "expected a unit kind (cloaking, crew, gun,"),
    # ids
    ("attack A2 by G9 at R1\n", L, 14, "firer 'G9' is not defined: no `unit G9 ...` line"),
    ("attack A2 by G1,M1 at R1\n", L, 17, "firer 'M1' is a move (line 6), not a unit"),
    ("attack A2 by G1 at Sq9\n", L, 20,
     "attack target 'Sq9' is neither a unit defined in this file nor a hex id"),
    ("attack A2 by G1 at A1\n", L, 20, "attack target 'A1' is an attack (line 5)"),
    ("attack A2 by G1 at R1 directed_by L9\n", L, 35, "directed_by 'L9' is not defined"),
    ("move M2 X1 to 3G5\n", L, 9, "moving unit 'X1' is not defined"),
    ("los G1 Zed clear\n", L, 8, "los endpoint 'Zed' is neither a unit defined in this file nor a hex id"),
    ("range Zed G1 2\n", L, 7, "range endpoint 'Zed' is neither"),
    ("roll movement G9 colored 1 white 1\n", L, 15, "roll movement subject 'G9' is not defined"),
    ("roll dust G1 3\n", L, 11, "roll dust subject 'G1' is a unit (line 1), not an attack"),
    ("query strays X9\n", L, 14, "strays argument 'X9' is not defined"),
    ("query cowers G1\n", L, 14, "cowers argument 'G1' is a unit (line 1), not an attack"),
    ("query mf_cost A1\n", L, 15, "mf_cost argument 'A1' is an attack (line 5), not a move"),
    ("expect strays X9\n", L, 15, "strays argument 'X9' is not defined"),
    ("query encircled Zed\n", L, 17, "encircled argument 'Zed' is neither a unit"),
    ("unit G1 german squad\n", L, 6,
     "'G1' is already defined as a unit at line 1 (units, fortifications, attacks and moves share one set of ids)"),
    ("move A1 G1 to 3G5\n", L, 6, "'A1' is already defined as an attack at line 5"),
    ("attack M1 by G1 at R1\n", L, 8, "'M1' is already defined as a move at line 6"),
    # hexes, strengths, dice
    ("hex 3g6 woods\n", L, 5, "malformed hex id '3g6': write an optional board number, one or two "
                              "capital column letters and a row number, like 3R6, 13I4, T7 or GG10"),
    ("hex G woods\n", L, 5, "malformed hex id 'G'"),
    ("hex ABC1 woods\n", L, 5, "malformed hex id 'ABC1'"),
    ("unit G3 german squad at 3g4\n", L, 25, "malformed hex id '3g4'"),
    ("move M2 G1 to x5\n", L, 15, "malformed hex id 'x5'"),
    ("unit G3 german squad 8-1\n", L, 22, "a squad strength is FP-range-morale, like 4-6-7; got '8-1'"),
    ("unit G3 german halfsquad 4-6\n", L, 26, "a halfsquad strength is FP-range-morale"),
    ("unit L3 german leader 4-6-7\n", L, 23,
     "a leader strength is morale-modifier, like 8-1, 10-2, 7-0 or 6+1; got '4-6-7'"),
    ("unit V3 german vehicle 4-6-7\n", L, 24, "a vehicle takes no strength; remove '4-6-7'"),
    ("unit G3 german squad 4-6-7x\n", L, 22, "expected a unit strength (like 4-6-7 or 8-1), 'at' or"),
    ("roll movement G1 colored 7 white 4\n", L, 26, "die value 7 is out of range: a die shows 1 to 6"),
    ("roll concealment G1 0\n", L, 21, "die value 0 is out of range"),
    ("attack A2 by G1 at R1 hexside 7\n", L, 31, "hexside 7 is out of range: a hexside is 1 to 6"),
    ("attack A2 by G1 at R1 vertex 0\n", L, 30, "vertex 0 is out of range: a vertex is 1 to 6"),
    # rolls
    ("roll movemnt G1 colored 1 white 1\n", L, 6,
     "unknown roll 'movemnt' (did you mean 'movement'?); rolls: nvr_table,"),
    ("roll movement G1 3\n", L, 18, "roll movement is a DR (two dice): write colored N white N"),
    ("roll concealment G1 colored 3 white 4\n", L, 29,
     "roll concealment is a dr (one die): write a single die value"),
    ("roll movement colored 3 white 4\n", L, 6,
     "roll movement needs a unit: write roll movement UNIT colored N white N"),
    ("roll nvr_table G1 colored 3 white 4\n", L, 16, "roll nvr_table takes no subject"),
    ("roll recon 2\nroll recon 2\n", L + 1, 6, "roll recon is given twice (first at line"),
    ("roll mc G1 colored 1 white 2\nroll mc G1 colored 3 white 2\n", L + 1, 6,
     "roll mc G1 is given twice"),
    # queries
    ("query strayz G1\n", L, 7, "unknown query 'strayz' (did you mean 'strays'?); every query is in the catalog: "
                                 "queries/catalog.toml (docs/queries.md)"),
    ("query strays\n", L, 7, "query strays takes 1 argument (strays UNIT), got 0"),
    ("query strays G1 G2\n", L, 17, "query strays takes 1 argument (strays UNIT), got 2"),
    ("query drm A1 night_lv tem\n", L, 23, "query drm takes 1 or 2 arguments (drm ATTACK [SOURCE]), got 3"),
    ("query drm A1 nite_lv\n", L, 14, "unknown DRM source 'nite_lv' (did you mean 'night_lv'?)"),
    ("query san germn\n", L, 11, "unknown nation 'germn' (did you mean 'german'?); nations: allied_minor,"),
    ("query in_effect Sun\n", L, 17, "in_effect argument must be a lowercase keyword"),
    ("query illuminated 3g5\n", L, 19, "malformed hex id '3g5'"),
    # expectations
    ("expect strays G1 = 3\n", L, 20,
     "'3' cannot be the answer of strays G1: strays answers yes or no (or undecided)"),
    ("expect mf_cost M1 = yes\n", L, 21, "mf_cost answers a number (like 3 or 2.5)"),
    ("expect drm A1 = 1.5\n", L, 17, "'1.5' cannot be the answer of drm A1: drm answers an integer"),
    ("expect night_class G1 = [G1]\n", L, 25, "night_class answers a keyword"),
    ("expect jitter_fire G1 = G2\n", L, 25, "jitter_fire answers a list of ids"),
    ("expect mf_cost M1\n", L, 8,
     "'expect mf_cost M1' needs a yes/no query, but mf_cost answers a number (like 3 or 2.5): "
     "write expect mf_cost M1 = VALUE"),
    ("expect not drm A1\n", L, 12, "'expect not drm A1' needs a yes/no query"),
    ("expect strays G1 =\n", L, 19,
     "expected an id, a number, 'yes', 'no', 'undecided' or '[' after '=', got end of line"),
    ("expect not strays G1 = yes\n", L, 22, "expected end of line after 'G1', got '='"),
    # repeats
    ("scenario weather rain\nscenario weather clear\n", L + 1, 18,
     "scenario weather is given twice with different values: clear here, rain at line"),
    ("scenario san german 3 san german 2\n", L, 34, "scenario san german is given twice"),
    ("scenario san german 3 san russian 2 nvr 2 nvr 2\n", None, None, None),
    ("hex 3G6 woods level 1\nhex 3G6 woods level 2\n", L + 1, 21, "hex 3G6 level is given twice"),
    ("range G1 R1 2\nrange G1 R1 3\n", L + 1, 13, "range G1 R1 is given twice"),
    ("attack A2 by G1 at R1 mg ordnance\n", L, 26, "attack A2 has two kinds, mg and ordnance"),
    ("edition asl\nedition sl4\n", L + 1, 9, "edition is given twice: sl4 here, asl at line"),
    ("interpretation x\ninterpretation x off\n", L + 1, 18,
     "interpretation x is switched off here but on at line"),
    ("edition sl5\n", L, 9, "expected one of asl, sl4 after 'edition', got 'sl5'"),
    # characters no word is made of
    ("unit G3 german squad é\n", L, 22, "got 'é'"),
    ("unit G3 german squad\u00a0broken\n", L, 21, "got character U+00A0"),
])
def test_errors(snippet, line, column, message):
    if message is None:  # not an error
        parse(BASE + snippet)
        return
    e = error(BASE + snippet)
    assert (e.line, e.column) == (line, column), e
    assert message in e.message, e
    assert str(e).splitlines() == [f"case.sit:{line}:{column}: {e.message}",
                                   *(f"case.sit:{n}:{c}: note: {t}" for n, c, t in e.notes)]
    assert "Traceback" not in str(e) and "Token(" not in str(e)


@pytest.mark.parametrize("snippet, column, message", [
    # issue 37: each was answered (a negative NVR, SAN, FP, TEM, Hindrance or range; a Base NVR of 2.5)
    ("scenario night nvr -2\n", 20, "scenario nvr -2 is below 0: the Base NVR counts hexes (E1.1)"),
    ("scenario night nvr 2.5\n", 20, "scenario nvr 2.5 is not a whole number: the Base NVR counts hexes"),
    ("scenario san russian -3\n", 22, "scenario san russian -3 is below 0: a SAN is a DR number (E1.76)"),
    ("scenario san russian 3.5\n", 22, "scenario san russian 3.5 is not a whole number"),
    ("attack A2 by G1 at R1 fp -4\n", 26, "attack A2 fp -4 is below 0: FP counts firepower factors"),
    ("attack A2 by G1 at R1 fp -1.5\n", 26, "attack A2 fp -1.5 is below 0"),
    ("attack A2 by G1 at R1 range -30\n", 29, "attack A2 range -30 is below 0: a range counts hexes"),
    ("attack A2 by G1 at R1 range 2.5\n", 29, "attack A2 range 2.5 is not a whole number"),
    ("range G1 R1 -1\n", 13, "range G1 R1 -1 is below 0: a range counts hexes"),
    ("range G1 R1 1.5\n", 13, "range G1 R1 1.5 is not a whole number"),
    ("hex 3A3 woods tem -2\n", 19, "hex 3A3 tem -2 is below -1: a TEM is a whole DRM, -1 at the lowest"),
    ("hex 3A3 woods tem 1.5\n", 19, "hex 3A3 tem 1.5 is not a whole number"),
    ("hex 3A3 grain hindrance -1\n", 25, "hex 3A3 hindrance -1 is below 0: a Hindrance is a whole DRM"),
    ("los G1 R1 hindrance -2\n", 21, "los G1 R1 hindrance -2 is below 0: a LOS Hindrance is a whole DRM"),
    ("los G1 R1 hindrance 0.5\n", 21, "los G1 R1 hindrance 0.5 is not a whole number"),
    ("scenario year 1944.5\n", 15, "scenario year 1944.5 is not a whole number"),
    ("hex 3A3 woods blaze 1.5\n", 21, "hex 3A3 blaze 1.5 is not a whole number: it counts Blazing levels"),
    ("unit G3 german squad 4-6-7 us -1\n", 31, "unit G3 us -1 is below 0"),
    ("unit G3 german squad 4-6-7 elr 2.5\n", 32, "unit G3 elr 2.5 is not a whole number"),
    ("attack A2 by G1 at R1 mc 1.5\n", 26, "attack A2 mc 1.5 is not a whole number: N is added to the MC DR"),
])
def test_a_number_the_game_does_not_give_is_refused_at_its_word(snippet, column, message):
    e = error(BASE + snippet)
    assert (e.line, e.column) == (BASE_LINES + 1, column), e
    assert message in e.message, e


@pytest.mark.parametrize("snippet", [
    "scenario night nvr 0 san russian 0\n", "scenario night nvr 2.0\n", "hex 3A3 woods tem -1 hindrance 0\n",
    "attack A2 by G1 at R1 fp 0 range 0\n", "attack A2 by G1 at R1 fp 2.5\n", "range G1 R1 0\n",
    "los G1 R1 hindrance 0\n",
    # the domains bound what the game gives; the other numbers keep their own checks
    "hex 3A3 grain height 0.5 level -1\n", "unit G3 german squad 4-6-7 at 3G4 level 1\n",
    "scenario year 1944\n", "hex 3A3 woods blaze 2\n", "unit G3 german squad 4-6-7 us 2 elr 0\n",
    "attack A2 by G1 at R1 mc 0\n",
])
def test_the_numbers_the_game_gives_are_taken(snippet):
    parse(BASE + snippet)


def test_situation_error_is_plain_data():
    import pickle

    e = SituationError("a.sit", 3, 7, "bad")
    assert str(e) == "a.sit:3:7: bad"
    assert str(pickle.loads(pickle.dumps(e))) == "a.sit:3:7: bad"


def test_the_parser_is_built_once():
    from aslkb.parser import grammar
    from aslkb.parser.lexer import WordLexer

    assert grammar.parser() is grammar.parser()
    assert isinstance(grammar.parser().lexer, WordLexer)


def test_the_generated_parser_tables_are_those_of_situation_lark():
    """parser/_situation_tables.py must be regenerated after a grammar change
    (python -m aslkb.parser.generate)."""
    from aslkb.parser import _situation_tables, generate

    assert _situation_tables.GRAMMAR_SHA256 == generate.grammar_digest()


def test_the_generator_writes_tables_for_the_same_grammar(tmp_path):
    """Regenerated, the tables hold the same terminals and rules (the states
    may be numbered otherwise)."""
    import importlib.util

    from aslkb.parser import _situation_tables, generate

    path = tmp_path / "regenerated.py"
    path.write_text(generate.tables_source(), encoding="utf-8")
    spec = importlib.util.spec_from_file_location("regenerated", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert sorted(module.RULES) == sorted(_situation_tables.RULES)
    assert [(n, sorted(w or ())) for n, w, _ in module.TERMINALS] == \
        [(n, sorted(w or ())) for n, w, _ in _situation_tables.TERMINALS]
    assert len(module.STATES) == len(_situation_tables.STATES)


# --- a bare hex id where a unit could be meant (no silent typos) -------------------------

def test_a_mistyped_unit_is_an_error_with_did_you_mean():
    text = "hex 3R1 open\nunit G1 german squad 4-6-7 at 3R3\nunit R1 russian squad 4-4-7 at 3R1\nattack A1 by G1 at R2\n"
    assert str(error(text)) == ("case.sit:4:20: R2 is neither a unit of this file nor a stated hex; "
                                "did you mean unit R1? (write 3R2 for the hex)")


def test_a_bare_hex_with_no_close_unit_asks_for_the_board_or_a_hex_statement():
    e = error("unit G1 german squad 4-6-7\nrange G1 T7 3\n")
    assert (e.line, e.column) == (2, 10)
    assert e.message == ("T7 is neither a unit of this file nor a stated hex: write the hex with its "
                         "board number, like 3T7, or state it with `hex T7 TERRAIN`")


@pytest.mark.parametrize("line", ["los G1 R2 clear", "range R2 G1 2", "attack A9 by G1 at R2", "query may_fire G1 R2"])
def test_every_place_follows_the_bare_hex_rule(line):
    e = error(BASE + line + "\n")
    assert e.line == BASE_LINES + 1 and "did you mean unit R1?" in e.message and "write 3R2" in e.message


def test_a_bare_hex_stated_with_hex_or_one_with_its_board_is_a_hex():
    assert new_facts("hex R2 open\nrange G1 R2 3\n")[-1] == 'range(unit("G1"),hex("R2"),3)'
    assert new_facts("range G1 3R2 3\n") == ['range(unit("G1"),hex("3R2"),3)']


def test_a_bare_hex_where_only_a_hex_can_stand_needs_no_hex_statement():
    assert new_facts("unit G9 german squad at T7\n")[-1] == 'at("G9","T7")'


def test_hex_ids_with_a_board_number_are_read_into_board_column_and_row():
    s = parse("hex 3E2 open\nhex GG10 open\nunit G1 german squad at 12GG10\nrange G1 3B0 2\n")
    assert sorted(str(f.symbol) for f in s.derived) == [
        'hex_id_parts("12GG10",12,32,10)', 'hex_id_parts("3B0",3,1,0)', 'hex_id_parts("3E2",3,4,2)']
    assert not any(f.symbol.name == "hex_id_parts" for f in s.facts)


# --- sides -------------------------------------------------------------------------------

def test_side_puts_a_unit_or_a_nationality_on_a_side():
    assert new_facts("side R1 axis\n") == ['unit_side("R1",axis)']
    assert new_facts("side french axis\n") == ["scenario_side(french,axis)"]


def test_a_unit_id_wins_over_a_nationality_in_side():
    assert facts("unit german russian squad\nside german axis\n")[-1] == 'unit_side("german",axis)'


@pytest.mark.parametrize("snippet, column, message", [
    ("side R9 axis\n", 6, "side 'R9' is neither a unit of this file nor a nationality (did you mean 'R1'?)"),
    ("side fench axis\n", 6, "(did you mean 'french'"),
    ("side A1 axis\n", 6, "side 'A1' is an attack"),
    ("side R1 axis\nside R1 allied\n", 9, "side R1 is given twice with different values"),
    ("side R1 neutral\n", 9, "neutral"),
])
def test_side_errors(snippet, column, message):
    e = error(BASE + snippet)
    assert e.column == column and message in e.message, e.message


def test_a_word_no_keyword_is_read_by_its_shape_as_it_would_be_anew():
    """The lexer reads a word that is no keyword once per shape (U17 and U4
    alike: a0 and a00 are apart); that must give every word the terminal
    reading it anew gives, in every file shipped and in words of every shape
    the patterns tell apart."""
    from pathlib import Path

    from aslkb.parser import grammar
    from aslkb.parser.lalr import UnexpectedToken

    root = Path(__file__).resolve().parent.parent
    texts = [p.read_text(encoding="utf-8") for p in [*root.glob("tests/cases/**/*.sit"), *root.glob("examples/*.sit")]]
    texts.append("unit G1 german squad 4-6-7 at 3R6\nunit fp russian squad 4-6-7 at G1\nunit 3R6 x squad 8-1 at 3r6\n"
                 "range G1 fp 12 fp 2.5\nroll MC G1 6/2\nattack A1 by G1 at g1 fp 4\nquery drm A1 night_lv\n")
    lexer = grammar.parser().lexer
    assert lexer.by_shape  # the shipped patterns name letters and digits by their classes

    def read(text):
        try:
            return grammar.parser().parse(text)
        except UnexpectedToken as e:
            return e.token, e.expected

    try:
        by_shape = [read(text) for text in texts]
        lexer.by_shape = False
        assert [read(text) for text in texts] == by_shape
    finally:
        lexer.by_shape = True


def test_a_pattern_that_tells_letter_case_or_names_a_letter_reads_each_word_anew():
    """The lexer reads a word by its shape only where no pattern can tell
    two words of one shape apart."""
    import re

    from aslkb.parser.lexer import shapes_decide

    assert shapes_decide([re.compile(r"[A-Za-z][A-Za-z0-9_]*"), re.compile(r"[0-9]+\/[0-9]+")])
    assert not shapes_decide([re.compile(r"[A-Z][0-9]+")])  # U1 and u1 share a shape
    assert not shapes_decide([re.compile(r"[0-9]+x")])  # 3x and 3y share a shape
    assert not shapes_decide([re.compile(r"\d+")])  # a class by its escape


def test_the_ascii_pattern_of_refused_characters_refuses_what_the_whole_one_does_in_ascii():
    """parser/characters.py searches an ASCII text with the ASCII part of its
    pattern alone: the two must agree on every ASCII character, alone and
    before a newline (a carriage return is refused only without one)."""
    import re

    from aslkb.parser.characters import _REFUSED, _REFUSED_ASCII

    for code in range(128):
        for text in (chr(code), chr(code) + "\n", "a" + chr(code) + "b"):
            assert bool(re.search(_REFUSED_ASCII, text)) == bool(re.search(_REFUSED, text)), repr(text)
