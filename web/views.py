"""What the server sends: every response is built here, from what its viewer may know.

The person's view of a live game is built from a *determinized world* of their seat's
information set (``state.determinize(seat, random.Random(WORLD_SEED))``), never from the
true state: two true states that the seat cannot tell apart give one world, hence one
response, byte for byte. Within that world the board is drawn for the seat, events are
narrated for the seat (``GameSpec.describe_events``) and the choices are the seat's own
legal actions. Other seats' hidden cards therefore never reach the client.

**Any registered game plays here.** What the page shows of a game comes from its
:class:`~art_gallery_env.core.registry.GameSpec`, and, where the game has the ``"web"``
capability, from the module its spec names as ``extensions["web"]`` (a plain module in
the game's folder, no FastAPI). That module may define any of these; each one it leaves
out falls back to the generic version here:

=====================================================  =====================================
``board(world, viewer, names) -> str``                 the board as ``viewer`` (None: a
                                                       spectator) may see it: SVG or HTML,
                                                       escaped by the module. Generic: the
                                                       game's ``render_text`` in a ``<pre>``
``choices(world, seat) -> dict``                       ``{"phase", "prompt", "options": [{
                                                       "action", "kind", "label", "legal",
                                                       "detail"?, ...}], "notes"?: [str]}``:
                                                       every legal action offered (others
                                                       may be shown with ``legal`` false and
                                                       a ``detail`` saying why). The page
                                                       lays options with ``value`` and
                                                       ``direction`` out as moves, with
                                                       ``marks`` as tile choices, with
                                                       ``value`` as cards. Generic: one
                                                       option per legal action, labelled by
                                                       ``action_to_str``, detailed by
                                                       ``describe_choice``
``seat_extras(world, seat) -> dict``                   more fields of the seat's own view
                                                       (e.g. ``hand``). Generic: none
``decision_label(before, after, action, viewer)``      a replay's name for a decision as
                                                       ``viewer`` saw it, or None (then:
                                                       ``action_to_str``). Generic:
                                                       ``hidden_action_name`` for another
                                                       seat's decision
``insight_released(decision_round, now) -> bool``      whether another seat's insight of
                                                       ``decision_round`` may be shown in
                                                       state ``now``. Generic: never before
                                                       the end of the game
``INSIGHT_RELEASE``                                    when that is, in words ("the end of
                                                       its round"); generic: "the end of
                                                       the game"
``COLOURS``                                            the seats' colours (CSS)
``VARIANT_LABELS``                                     variant name -> its set-up label
``RESULT_COLUMNS``                                     ``(key, head, tooltip key or None)``
                                                       of the final score table; generic:
                                                       ``score_parts``, total, rank
``result_columns(state)``                              the same for one finished game (a
                                                       solo table may show more); generic:
                                                       ``RESULT_COLUMNS``
``RESULT_NOTE`` / ``result_note(state)``               a line under the final score
``verdict(state, seat) -> str``                        how ``seat`` did, in the game's own
                                                       terms (a solo goal level, a shared
                                                       win). Generic: by rank at a table of
                                                       two or more; at one seat only the
                                                       total (a table of one always ranks
                                                       first, which is no win)
``STRENGTH``                                           agent spec -> its measured strength
                                                       in words, for the set-up form
                                                       (strongest first); generic: none
=====================================================  =====================================

An agent's insight (:meth:`Agent.explain`) is computed from that agent's own information
(its hand, its face-down bids ...): a viewer gets it only when its seat made the decision,
once the game's ``insight_released`` says so (Art Gallery: the decision's round is over,
R8) or at the end of the game.
"""

from __future__ import annotations

import html
import random
import threading
from types import ModuleType
from typing import Any

from art_gallery_env.core.registry import GameSpec, game_of
from art_gallery_env.core.scoring import winners

from .games import WebGame

MAX_INSIGHT = 60  # insight entries in a game view (GET .../insight has them all)
WORLD_SEED = 0  # any seed: a world differs from another only in what the seat cannot see
DEFAULT_COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9")


class GameWeb:
    """One game as the web app shows it: its ``"web"`` module's functions where it has
    them, the generic ones otherwise (see the module doc)."""

    def __init__(self, spec: GameSpec) -> None:
        self.spec = spec
        self.module: ModuleType | None = None
        if spec.has("web") and "web" in spec.extensions:
            self.module = spec.extension("web")

    def _own(self, name: str) -> Any:
        return getattr(self.module, name, None) if self.module is not None else None

    @property
    def drawn(self) -> bool:
        """Whether the game has a drawn board (else the page shows its text rendering)."""
        return self._own("board") is not None

    @property
    def colours(self) -> list[str]:
        return list(self._own("COLOURS") or DEFAULT_COLOURS)

    @property
    def variant_labels(self) -> dict[str, str]:
        return dict(self._own("VARIANT_LABELS") or {})

    def board(self, world: Any, viewer: int | None, names: list[str]) -> str:
        own = self._own("board")
        if own is not None:
            return own(world, viewer, names)
        text = html.escape(self.spec.render_text(world, viewer))
        return f'<pre class="text-board">{text}</pre>'

    def choices(self, world: Any, seat: int) -> dict[str, Any]:
        own = self._own("choices")
        if own is not None:
            return own(world, seat)
        spec, phase = self.spec, world.phase_name
        options = [
            {
                "action": a,
                "kind": phase,
                "label": spec.action_to_str(a),
                "legal": True,
                "detail": spec.describe_choice(world, seat, a),
            }
            for a in world.legal_actions()
        ]
        prompt = f"Your decision: {phase.replace('_', ' ')}"
        return {"phase": phase, "prompt": prompt, "options": options}

    def seat_extras(self, world: Any, seat: int) -> dict[str, Any]:
        own = self._own("seat_extras")
        return dict(own(world, seat)) if own is not None else {}

    def decision_label(self, before: Any, after: Any, action: int, viewer: int | None) -> str:
        own = self._own("decision_label")
        if own is not None:
            label = own(before, after, action, viewer)
        elif viewer is not None and viewer != before.current_player:
            label = self.spec.hidden_action_name(action)
        else:
            label = None
        return label if label is not None else self.spec.action_to_str(action)

    @property
    def insight_release(self) -> str:
        return str(self._own("INSIGHT_RELEASE") or "the end of the game")

    def insight_released(self, decision_round: int, now: Any) -> bool:
        own = self._own("insight_released")
        return bool(own(decision_round, now)) if own is not None else False

    def result_columns(self, state: Any = None) -> list[dict[str, Any]]:
        by_state = self._own("result_columns")
        own = by_state(state) if by_state is not None and state is not None else None
        if own is None:
            own = self._own("RESULT_COLUMNS")
        if own is None:
            own = [(key, head, None) for key, head in self.spec.score_parts]
            own += [("total", "total", None), ("rank", "rank", None)]
        return [{"key": key, "label": head, "parts": parts} for key, head, parts in own]

    def result_note(self, state: Any = None) -> str | None:
        by_state = self._own("result_note")
        if by_state is not None and state is not None:
            return by_state(state)
        return self._own("RESULT_NOTE")

    def verdict(self, state: Any, seat: int) -> str:
        """How ``seat`` did in the finished game ``state``: the game's own words, else by
        rank, and never a win at a table of one (it always ranks first there)."""
        own = self._own("verdict")
        if own is not None:
            return str(own(state, seat))
        breakdown = state.score_breakdown()
        if state.num_players == 1:
            return f"Game over: your total is {breakdown[seat]['total']}."
        won = winners(breakdown)
        if seat in won:
            return "You win!" if len(won) == 1 else "You share the win."
        return f"You finish rank {breakdown[seat]['rank']} of {state.num_players}."

    @property
    def strength(self) -> list[dict[str, str]]:
        """The agents' measured strength, strongest first (``STRENGTH``; generic: none)."""
        own = self._own("STRENGTH") or {}
        return [{"spec": spec, "strength": text} for spec, text in dict(own).items()]


_WEB: dict[str, GameWeb] = {}
_LOCK = threading.Lock()


def web_of(spec: GameSpec) -> GameWeb:
    """The web view of ``spec``'s game (built once per registered spec)."""
    with _LOCK:
        web = _WEB.get(spec.name)
        if web is None or web.spec is not spec:
            web = _WEB[spec.name] = GameWeb(spec)
        return web


def seat_world(state: Any, seat: int) -> Any:
    """The one world the server draws ``seat``'s responses from (see the module doc).
    Once the game is over it is the state itself: everything is public then (the final
    scoring reveals it, and the record, which holds the seed, opens), and a score table
    drawn from a world would show others' scores by cards they never held."""
    if state.is_over:
        return state
    return state.determinize(seat, random.Random(WORLD_SEED))


def insight_visible(
    web: GameWeb, decider: int, decision_round: int, viewer: int | None, now: Any
) -> bool:
    """Whether ``viewer`` (None: spectator) may see the insight of a decision ``decider``
    made in round ``decision_round``, in state ``now`` (see the module doc)."""
    return (
        viewer is None
        or viewer == decider
        or now.is_over
        or web.insight_released(decision_round, now)
    )


def insight_entry(
    spec: GameSpec,
    index: int,
    decider: int,
    decision_round: int,
    action: int,
    insight: dict[str, Any],
) -> dict[str, Any]:
    """An insight as the page shows it: each listed action with its name."""
    top = [{**t, "label": spec.action_to_str(t["action"])} for t in insight.get("top", [])]
    return {
        **insight,
        "decision": index,
        "seat": decider,
        "round": decision_round,
        "action": action,
        "label": spec.action_to_str(action),
        "top": top,
    }


# -- the person's view of a live game ----------------------------------------------------------
def game_summary(game: WebGame) -> dict[str, Any]:
    """A line of the games list: set-up and progress, public to the person."""
    state, spec = game.state, game.rules
    summary = {
        "id": game.id,
        "game": spec.name,
        "title": spec.title,
        "variants": spec.active_variants(game.variants),
        "players": game.num_players,
        "seat": game.seat,
        "agents": game.agents,
        "names": game.names,
        "decision": len(game.actions),
        "round": state.round,
        "over": state.is_over,
        "your_turn": game.your_turn,
        "created": game.created,
        "updated": game.updated,
    }
    if state.is_over:
        breakdown = state.score_breakdown()
        summary["totals"] = [row["total"] for row in breakdown]
        summary["winners"] = winners(breakdown)
        summary["verdict"] = web_of(spec).verdict(state, game.seat)
    return summary


def game_view(game: WebGame) -> dict[str, Any]:
    """Everything the person's page shows, built from their seat's world only."""
    seat, spec = game.seat, game.rules
    web = web_of(spec)
    world = seat_world(game.state, seat)
    names = game.names
    view = game_summary(game)
    view.update(
        {
            "phase": "game over" if world.is_over else world.phase_name,
            "current_player": None if world.is_over else world.current_player,
            "board": web.board(world, seat, names),
            "drawn": web.drawn,
            "recent": spec.describe_events(world, game.seen_events, seat, names),
            "choices": web.choices(world, seat) if game.your_turn else None,
            **web.seat_extras(world, seat),
        }
    )
    released, pending = [], 0
    for i, insight in enumerate(game.insight):
        if insight is None:
            continue
        decider, decision_round = game.deciders[i], game.rounds[i]
        if not insight_visible(web, decider, decision_round, seat, world):
            pending += 1
        elif decision_round >= world.round - 1:  # this round and the last: the rest on request
            entry = insight_entry(spec, i, decider, decision_round, game.actions[i], insight)
            released.append(entry)
    view["insight"] = released[-MAX_INSIGHT:]
    view["insight_pending"] = pending
    view["insight_release"] = web.insight_release
    if world.is_over:
        view["result"] = result(world, seat, web)
    return view


def game_log(game: WebGame) -> list[str]:
    world = seat_world(game.state, game.seat)
    return game.rules.describe_events(world, 0, game.seat, game.names)


def released_insight(game: WebGame) -> list[dict[str, Any]]:
    """Every insight entry the person may see now (all of them once the game is over)."""
    spec = game.rules
    web = web_of(spec)
    world = seat_world(game.state, game.seat)
    return [
        insight_entry(spec, i, game.deciders[i], game.rounds[i], game.actions[i], insight)
        for i, insight in enumerate(game.insight)
        if insight is not None
        and insight_visible(web, game.deciders[i], game.rounds[i], game.seat, world)
    ]


def result(state: Any, seat: int | None, web: GameWeb | None = None) -> dict[str, Any]:
    """The final score breakdown and, for a seat, how it did."""
    web = web or web_of(game_of(state))
    breakdown = state.score_breakdown()
    out: dict[str, Any] = {
        "breakdown": breakdown,
        "winners": winners(breakdown),
        "columns": web.result_columns(state),
        "note": web.result_note(state),
    }
    if seat is not None:
        out["verdict"] = web.verdict(state, seat)
    return out


# -- the person's choices ----------------------------------------------------------------------
def choices(world: Any, seat: int) -> dict[str, Any]:
    """The decision in front of ``seat`` in ``world``, as its game's web view offers it."""
    return web_of(game_of(world)).choices(world, seat)


# -- replays ------------------------------------------------------------------------------------
def replay_step(
    spec: GameSpec,
    record: dict[str, Any],
    states: tuple[Any, Any | None],
    step: int,
    viewer: int | None,
    names: list[str],
) -> dict[str, Any]:
    """Step ``step`` of a record of ``spec``'s game (the state after ``step`` actions) as
    ``viewer`` saw it: the board, the decision that led there with its events, and its
    insight if visible."""
    web = web_of(spec)
    after, before = states
    actions = record["actions"]
    view: dict[str, Any] = {
        "step": step,
        "steps": len(actions),
        "viewer": viewer,
        "game": spec.name,
        "title": spec.title,
        "round": after.round,
        "phase": "game over" if after.is_over else after.phase_name,
        "board": web.board(after, viewer, names),
        "drawn": web.drawn,
        "insight_release": web.insight_release,
        "decision": None,
        "events": [],
        "insight": None,
    }
    if step > 0 and before is not None:
        action = actions[step - 1]
        decider = before.current_player
        lines = spec.describe_events(after, len(before.events), viewer, names)
        view["decision"] = {
            "index": step - 1,
            "seat": decider,
            "name": names[decider],
            "label": web.decision_label(before, after, action, viewer),
            "round": before.round,
        }
        view["events"] = [line for line in lines if line]
        insight = (record.get("insight") or [None] * len(actions))[step - 1]
        if insight is not None and insight_visible(web, decider, before.round, viewer, after):
            entry = insight_entry(spec, step - 1, decider, before.round, action, insight)
            view["insight"] = entry
    if step == len(actions):
        view["result"] = result(after, None, web)  # no "you" in a replay
    return view
