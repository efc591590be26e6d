// Every registered game in the browser: set up a game, play it by clicking, replay records.
// Plain JavaScript, no build step. Every fact shown comes from the server, which builds
// each response from what the viewer's seat may know; the page only lays it out. Nothing
// here names a game: the games, their table sizes, variants, agents, colours and boards
// come from /api/setup and the views.
"use strict";

const app = document.getElementById("app");
let setupInfo = null; // GET /api/setup, fetched once
let colours = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9"];

// -- small helpers ------------------------------------------------------------------------
function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "class") el.className = value;
    else if (key === "style") el.setAttribute("style", value);
    else el.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

async function api(path, options = {}) {
  const init = { headers: {}, method: options.method || "GET" };
  if (options.body !== undefined) {
    init.method = options.method || "POST";
    init.headers["Content-Type"] = "application/json";
    init.body = typeof options.body === "string" ? options.body : JSON.stringify(options.body);
  }
  const response = await fetch(path, init);
  let data = null;
  try {
    data = await response.json();
  } catch (err) {
    data = { error: `${response.status} ${response.statusText}` };
  }
  if (!response.ok) {
    const error = new Error(data.error || `${response.status} ${response.statusText}`);
    error.status = response.status;
    error.data = data;
    throw error;
  }
  return data;
}

function toast(message) {
  const el = document.getElementById("toast");
  el.textContent = message;
  el.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => (el.hidden = true), 6000);
}

function seatDot(seat, palette = colours) {
  return h("span", { class: "dot", style: `background:${palette[seat % palette.length]}` });
}

function paletteOf(name) {
  const game = gameInfo(name);
  return (game && game.colours) || colours;
}

function percent(p) {
  return `${(100 * p).toFixed(p >= 0.1 ? 0 : 1)}%`;
}

function setNav(name) {
  for (const a of document.querySelectorAll("[data-nav]")) {
    a.classList.toggle("active", a.dataset.nav === name);
  }
}

// The header and the tab name the game on screen; pages of every game name them all.
function setTitle(title, what) {
  const games = ((setupInfo && setupInfo.games) || []).map((g) => g.title);
  const name = title || games.join(" · ") || document.querySelector(".brand").textContent;
  document.querySelector(".brand").textContent = name;
  document.title = what ? `${what} · ${name}` : name;
}

async function loadSetup() {
  if (!setupInfo) {
    setupInfo = await api("/api/setup");
    colours = setupInfo.colours || colours;
  }
  return setupInfo;
}

function gameInfo(name) {
  const games = (setupInfo && setupInfo.games) || [];
  return games.find((g) => g.name === name) || games.find((g) => g.name === setupInfo.default_game) || null;
}

function useColoursOf(name) {
  const game = gameInfo(name);
  if (game && game.colours) colours = game.colours;
}

function gameLabel(item) {
  const active = Object.entries(item.variants || {}).map(([k, v]) => (v === true ? k : `${k}=${v}`));
  return (item.title || item.game || "") + (active.length ? ` (${active.join(", ")})` : "");
}

// -- routing ------------------------------------------------------------------------------
function route() {
  const hash = location.hash.replace(/^#/, "") || "/";
  const [path, query] = hash.split("?");
  const params = new URLSearchParams(query || "");
  const parts = path.split("/").filter(Boolean);
  let view;
  if (parts[0] === "game" && parts[1]) view = showGame(parts[1]);
  else if (parts[0] === "replay" && parts[1]) view = showReplay(parts[1], params);
  else if (parts[0] === "games") view = showGames();
  else if (parts[0] === "replays") view = showReplays();
  else view = showHome();
  view.catch((err) => {
    app.replaceChildren(h("div", { class: "panel error" }, h("h2", {}, "Something went wrong"),
      h("p", {}, err.message), h("p", {}, h("a", { href: "#/" }, "Back to the start"))));
  });
}
window.addEventListener("hashchange", route);
window.addEventListener("DOMContentLoaded", route);

// -- set-up -------------------------------------------------------------------------------
async function showHome() {
  setNav("home");
  const info = await loadSetup();
  const form = h("form", { class: "panel setup", id: "setup" });
  const games = info.games || [];
  const gameSelect = h("select", { name: "game", id: "game" },
    games.map((g) => h("option", { value: g.name, selected: g.name === info.default_game }, g.title)));
  const players = h("select", { name: "players", id: "players" });
  const seat = h("select", { name: "seat", id: "seat" });
  const seats = h("div", { class: "seats" });
  const seed = h("input", { name: "seed", id: "seed", type: "number", min: 0, placeholder: "random" });
  const variants = h("div", { class: "variants", id: "variants" });
  const boardNote = h("p", { class: "hint", id: "board-note" });
  const strongest = h("p", { class: "hint", id: "strongest" });
  const defaults = ["heuristic", "random", "ismcts:iters=50", "heuristic", "random"];
  const chosen = () => gameInfo(gameSelect.value);

  function opponentSelect(k, specs) {
    const select = h("select", { class: "opponent", "data-index": k, "aria-label": "opponent" },
      specs.map((s) => h("option", { value: s.spec, title: s.strength || null }, optionLabel(s))),
      h("option", { value: "" }, "other spec…"));
    const wanted = defaults[k % defaults.length];
    select.value = specs.some((s) => s.spec === wanted) ? wanted : (specs.length ? specs[0].spec : "");
    const custom = h("input", { class: "custom", placeholder: "e.g. ismcts:iters=200 or a checkpoint path", hidden: select.value !== "" });
    select.addEventListener("change", () => { custom.hidden = select.value !== ""; });
    return h("span", { class: "opponent-pick" }, select, custom);
  }

  function layoutSeats(keep = true) {
    const game = chosen();
    const specs = rankedOpponents(game);
    strongest.textContent = specs.length && specs[0].strength ? `Opponents strongest first. Strongest: ${specs[0].label.replace(/: .*/, "")}, ${specs[0].strength}.` : "";
    strongest.hidden = !strongest.textContent;
    useColoursOf(game.name);
    const n = Number(players.value);
    const kept = Math.min(Number(seat.value || 0), n - 1);
    seat.replaceChildren(...Array.from({ length: n }, (_, p) =>
      h("option", { value: p, selected: p === kept }, `P${p}`)));
    const old = keep ? [...seats.querySelectorAll(".opponent-pick")].map((el) => [el.querySelector("select").value, el.querySelector(".custom").value]) : [];
    seats.replaceChildren();
    let k = 0;
    for (let p = 0; p < n; p++) {
      const label = h("span", { class: "seat-label" }, seatDot(p), `P${p}`);
      if (p === Number(seat.value)) {
        seats.append(h("div", { class: "seat-row you" }, label, h("strong", {}, "You")));
      } else {
        const pick = opponentSelect(k, specs);
        const select = pick.querySelector("select");
        if (old[k] && (old[k][0] === "" || specs.some((s) => s.spec === old[k][0]))) {
          select.value = old[k][0];
          pick.querySelector(".custom").value = old[k][1];
          pick.querySelector(".custom").hidden = old[k][0] !== "";
        }
        seats.append(h("div", { class: "seat-row" }, label, pick));
        k++;
      }
    }
  }

  function variantInput(v) {
    const attrs = { name: v.name, "data-variant": v.name, "data-type": v.type };
    if (v.type === "bool") return h("label", { class: "check" }, h("input", { ...attrs, id: v.name, type: "checkbox", checked: v.default }), v.label);
    const type = v.type === "int" || v.type === "float" ? "number" : "text";
    return h("label", {}, v.label, h("input", { ...attrs, id: v.name, type, step: v.type === "float" ? "any" : null, value: v.default }));
  }

  function layoutGame() {
    const game = chosen();
    setTitle(game.title, "New game");
    const wanted = Number(players.value) || 4; // keep the table size where the game allows it
    const n = game.players.includes(wanted) ? wanted : game.players.includes(4) ? 4 : game.players[game.players.length - 1];
    players.replaceChildren(...game.players.map((k) => h("option", { value: k, selected: k === n }, `${k} player${k === 1 ? "" : "s"}`)));
    players.value = String(n);
    variants.replaceChildren(...(game.variant_fields || []).map(variantInput));
    boardNote.textContent = game.board_note || "";
    boardNote.hidden = !game.board_note;
    layoutSeats(false);
  }

  function variantValues() {
    const out = {};
    for (const input of variants.querySelectorAll("[data-variant]")) {
      const type = input.dataset.type;
      if (type === "bool") out[input.dataset.variant] = input.checked;
      else if (type === "int") out[input.dataset.variant] = parseInt(input.value, 10);
      else if (type === "float") out[input.dataset.variant] = Number(input.value);
      else out[input.dataset.variant] = input.value;
    }
    return out;
  }

  gameSelect.addEventListener("change", layoutGame);
  players.addEventListener("change", () => layoutSeats());
  seat.addEventListener("change", () => layoutSeats());
  layoutGame();

  const start = h("button", { type: "submit", class: "primary", id: "start" }, "Start the game");
  form.append(
    h("h2", {}, "New game"),
    games.length > 1 ? h("label", {}, "Game", gameSelect) : null,
    boardNote,
    h("div", { class: "grid2" },
      h("label", {}, "Table", players),
      h("label", {}, "Your seat", seat)),
    h("p", { class: "hint" }, "The start player is drawn at random. Opponents: any agent, or a checkpoint of this game from the folder the server was started with."),
    strongest,
    seats,
    h("div", { class: "grid2" },
      h("label", {}, "Seed (optional)", seed),
      variants),
    start);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const opponents = [...seats.querySelectorAll(".opponent-pick")].map((el) => {
      const value = el.querySelector("select").value;
      return value === "" ? el.querySelector(".custom").value.trim() : value;
    });
    const body = { game: gameSelect.value, players: Number(players.value), seat: Number(seat.value), opponents, variants: variantValues() };
    if (seed.value !== "") body.seed = Number(seed.value);
    start.disabled = true;
    start.textContent = "Starting…";
    try {
      const game = await api("/api/live/games", { body });
      location.hash = `#/game/${game.id}`;
    } catch (err) {
      toast(err.message);
      start.disabled = false;
      start.textContent = "Start the game";
    }
  });

  const listed = await api("/api/games");
  const recent = gamesTable(listed.slice(0, 6));
  app.replaceChildren(h("div", { class: "home" }, form,
    h("section", { class: "panel" }, h("h2", {}, "Your games"),
      listed.length ? recent : h("p", { class: "hint" }, "No games yet."),
      listed.length > 6 ? h("p", {}, h("a", { href: "#/games" }, `All ${listed.length} games`)) : null)));
}

// The opponents a game offers, strongest first where its web view measured them
// (/api/setup's "strength": agent spec -> its strength in words, strongest first).
function rankedOpponents(game) {
  const specs = [...game.agents, ...game.checkpoints];
  const measured = game.strength || [];
  const same = (m, s) => m.spec === s.spec || s.spec.endsWith(`/${m.spec}`); // a checkpoint by its file
  const rank = (s) => { const k = measured.findIndex((m) => same(m, s)); return k < 0 ? measured.length : k; };
  return specs.map((s, k) => ({ ...s, k, strength: (measured[rank(s)] || {}).strength }))
    .sort((a, b) => rank(a) - rank(b) || a.k - b.k);
}

function optionLabel(s) {
  const label = s.label.replace(/\b1 players\b/g, "1 player"); // "trained at 1 player"
  return s.strength ? `${label} · ${s.strength}` : label;
}

function gamesTable(games) {
  const table = h("table", { class: "list" },
    h("thead", {}, h("tr", {}, h("th", {}, "Game"), h("th", {}, "Players"), h("th", {}, "Round"), h("th", {}, "Status"), h("th", {}, ""))),
    h("tbody", {}, games.map((g) => {
      const status = g.over
        ? (g.verdict || "over") + ` · ${g.totals.join(" / ")}`
        : g.your_turn ? "your turn" : "agents to play";
      const palette = paletteOf(g.game);
      const row = h("tr", { "data-game": g.id },
        h("td", {}, gameLabel(g)),
        h("td", {}, g.names.map((name, p) => h("span", { class: "who" }, seatDot(p, palette), name))),
        h("td", {}, g.round),
        h("td", {}, status),
        h("td", { class: "actions" },
          h("a", { class: "button", href: `#/game/${g.id}` }, g.over ? "Result" : "Continue"),
          g.over ? h("a", { class: "button", href: `#/replay/game-${g.id}` }, "Replay") : null,
          h("button", { class: "delete", title: g.over ? "delete this game and its record" : "resign: the game and its file are deleted",
            onclick: async () => { if (await deleteGame(g)) row.remove(); } }, g.over ? "Delete" : "Resign")));
      return row;
    })));
  return table;
}

// Resigning deletes a game (a game's rules have no resignation): asked first.
async function deleteGame(g) {
  const what = g.over ? "Delete this game and its record?" : "Resign this game? It is deleted, with its file.";
  if (!window.confirm(what)) return false;
  try {
    await api(`/api/games/${g.id}`, { method: "DELETE" });
    return true;
  } catch (err) {
    if (err.status === 404) return true; // gone already
    toast(err.message);
    return false;
  }
}

async function showGames() {
  setNav("games");
  await loadSetup();
  setTitle(null, "Games");
  const games = await api("/api/games");
  app.replaceChildren(h("section", { class: "panel wide" }, h("h2", {}, "Games on this server"),
    games.length ? gamesTable(games) : h("p", { class: "hint" }, "No games yet."),
    skippedGames(setupInfo.skipped_games || [])));
}

// Saved games the server could not load: named with the reason, which shows no seat's
// actions, seed or legal moves (the server words it so).
function skippedGames(problems) {
  if (!problems.length) return h("span", {});
  return h("div", { class: "skipped", id: "skipped-games" },
    h("h3", {}, "Saved games that could not be loaded"),
    h("ul", {}, ...problems.map((p) => h("li", {}, p))));
}

// -- playing ------------------------------------------------------------------------------
// The page follows a game through /api/live: the person's decision is answered at once,
// the agents play off the request thread, and a long poll brings each of their moves as it
// is made. Any failure (a network error, a server restart) is retried with a growing pause,
// and the page shows that it is reconnecting; whatever the server has then is shown.
let current = null; // the game view on screen
let following = 0; // the follow loop that may draw; a newer one stops the older
const LONG_POLL_S = 5;

async function showGame(id) {
  setNav("games");
  await loadSetup();
  const view = await api(`/api/live/games/${id}`);
  renderGame(view);
  follow(id);
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const onGamePage = (id) => location.hash.startsWith(`#/game/${id}`);

function setConnection(problem) {
  let el = document.getElementById("conn");
  if (!problem) {
    if (el) el.remove();
    return;
  }
  if (!el) {
    el = h("div", { id: "conn", role: "status" });
    document.body.append(el);
  }
  el.textContent = `Connection lost (${problem}): reconnecting…`;
}

// Follow the game until it is the person's turn, the game is over or the agents stopped.
async function follow(id, retry = false) {
  const token = ++following;
  let failures = 0;
  while (token === following && onGamePage(id)) {
    const view = current && current.id === id ? current : null;
    if (view && !view.agents_playing && !view.thinking) break; // the person's turn, or over
    if (view && view.agent_error && !retry) break;
    const after = view ? `&after=${view.decision}` : "";
    try {
      const next = await api(`/api/live/games/${id}?wait=${LONG_POLL_S}${after}${retry ? "&retry=true" : ""}`);
      retry = false;
      if (failures) setConnection(null);
      failures = 0;
      if (token !== following || !onGamePage(id)) return;
      if (next.unchanged) continue;
      renderGame(next);
    } catch (err) {
      if (token !== following) return;
      if (err.status === 404) {
        setConnection(null);
        app.replaceChildren(h("div", { class: "panel error" }, h("h2", {}, "This game is gone"),
          h("p", {}, err.message), h("p", {}, h("a", { href: "#/" }, "Start a new game"))));
        return;
      }
      failures++;
      setConnection(err.status ? `${err.status}` : "no answer");
      await sleep(Math.min(250 * 2 ** failures, 4000));
    }
  }
}

function renderGame(view) {
  current = view;
  useColoursOf(view.game);
  setTitle(view.title, view.over ? "Game over" : view.your_turn ? "Your turn" : `Round ${view.round}`);
  const side = h("aside", { class: "side" },
    statusLine(view),
    view.over ? overPanel(view) : null,
    view.over ? resultPanel(view.result, view.names, view.seat) : decisionPanel(view),
    lastMovePanel(view),
    recentPanel(view),
    insightPanel(view.insight, view.names, view.insight_pending, view.insight_release),
    h("p", { class: "links" },
      h("a", { href: "#", onclick: (e) => { e.preventDefault(); showLog(view.id); } }, "Whole game log"),
      view.over ? null : h("button", { id: "resign", class: "delete", onclick: async () => {
        if (await deleteGame(view)) location.hash = "#/";
      } }, "Resign")));
  const board = boardPanel(view.board, view.drawn);
  if (view.your_turn) boardTargets(board, view);
  closeTargetMenu();
  app.replaceChildren(h("div", { class: "play", "data-decision": view.decision }, board, side));
}

function boardPanel(markup, drawn = true) {
  const board = h("section", { class: "board" + (drawn ? "" : " text"), "aria-label": "board" });
  board.innerHTML = markup; // drawn by the server (the game's SVG, or its text in a <pre>), escaped there
  return board;
}

function statusLine(view) {
  let text;
  let cls = "status";
  if (view.over) text = `Game over after round ${view.round}`;
  else if (view.your_turn) {
    text = `Round ${view.round} · your turn: ${view.phase.replace(/_/g, " ")}`;
    cls += " yours";
  } else if (view.agent_error) {
    text = `Round ${view.round} · the agents stopped`;
    cls += " stopped";
  } else {
    const who = view.thinking ? view.thinking.name : view.names[view.current_player];
    return h("div", { class: cls + " thinking-now", id: "status" },
      h("span", {}, `Round ${view.round} · `, h("span", { id: "thinking" }, `${who} is thinking…`)),
      h("span", { class: "spinner", "aria-hidden": "true" }));
  }
  return h("div", { class: cls, id: "status" }, text);
}

// At the end: the next things to do, at the top where they are seen.
function overPanel(view) {
  return h("div", { class: "over-actions", id: "over-actions" },
    h("a", { href: "#/", class: "button primary", id: "new-game" }, "New game"),
    h("a", { href: `#/replay/game-${view.id}`, class: "button", id: "replay-link" }, "Replay this game"));
}

function lastMovePanel(view) {
  const last = view.last_move;
  if (!last || !last.lines || !last.lines.length) return null;
  return h("section", { class: "panel last-move", id: "last-move", "data-decision": last.decision },
    h("h2", {}, last.seat === view.seat ? "Your last move" : "Last move"),
    h("ul", { class: "events" }, last.lines.map((line) => {
      const p = seatNamed(line, view.names);
      return h("li", { "data-seat": p === null ? null : p }, p === null ? null : seatDot(p), line);
    })));
}

// The seat a narrated line is about: the one whose name begins it (the longest such name),
// or null for a line about no seat (a round, a scoring), which then gets no seat's dot.
function seatNamed(line, names) {
  let best = null;
  names.forEach((name, p) => {
    const starts = line.startsWith(name) && (line.length === name.length || /[\s:,'’]/.test(line[name.length]));
    if (starts && (best === null || name.length > names[best].length)) best = p;
  });
  return best;
}

function agentErrorPanel(view) {
  const e = view.agent_error;
  return h("section", { class: "panel decision stopped", id: "decision" },
    h("h2", {}, "The agents stopped"),
    h("p", { id: "agent-error" }, e.error),
    h("p", {},
      h("button", { id: "retry", class: "primary", onclick: () => follow(view.id, true) }, "Try again"), " ",
      h("button", { class: "delete", onclick: async () => { if (await deleteGame(view)) location.hash = "#/"; } }, "Resign")));
}

function decisionPanel(view) {
  const panel = h("section", { class: "panel decision", id: "decision" });
  if (view.agent_error) return agentErrorPanel(view);
  if (!view.choices) {
    const who = view.thinking ? view.thinking.name : "the agents";
    panel.append(h("h2", {}, "Waiting"), h("p", { class: "thinking" }, `${who} is thinking…`));
    return panel;
  }
  const c = view.choices;
  panel.append(h("h2", {}, "Your decision"), h("p", { class: "prompt" }, c.prompt));
  for (const note of c.notes || []) panel.append(h("p", { class: "hint" }, note));
  const pick = (option, event) => choose(view, option, event);
  const button = (option, content, cls = "") => h("button", {
    class: `choice ${cls}`, "data-action": option.action, "data-kind": option.kind,
    disabled: !option.legal, title: option.legal ? option.label : `not legal now: ${option.detail || option.label}`,
    onclick: (event) => pick(option, event),
  }, content);
  // an option marked "short" shows its name, with what it does on hover (and to a screen reader)
  const plain = (o) => o.short && o.detail
    ? withHover(button(o, [h("strong", {}, o.label)], "wide short"), o)
    : button(o, [h("strong", {}, o.label), o.detail ? h("span", { class: "dest" }, o.detail) : null], "wide");
  // The layout follows the fields the game's view gives its options: a card value and a
  // direction (moves), tile marks (a shop), a card value (cards); else one button each.
  const opts = c.options;
  const has = (key) => opts.length > 0 && opts.some((o) => o[key] !== undefined);
  let rest = [];
  if (has("direction") && has("value")) {
    const laid = opts.filter((o) => o.value !== undefined && o.direction !== undefined);
    rest = opts.filter((o) => !laid.includes(o));
    const values = [...new Set(laid.map((o) => o.value))];
    panel.append(h("div", { class: "moves" }, values.map((v) => {
      const [cw, acw] = [0, 1].map((d) => laid.find((o) => o.value === v && o.direction === d));
      return h("div", { class: "move-row" }, h("span", { class: "card" }, v),
        [cw, acw].map((o, d) => o ? button(o, [
          h("span", { class: "arrow", title: d ? "anticlockwise" : "clockwise" }, d ? "↺" : "↻"),
          o.legal ? h("span", { class: "dest" }, h("span", {}, h("strong", {}, o.area), ` · ${o.free} free`),
            h("small", {}, o.what)) : h("span", { class: "dest" }, o.detail)], "move") : null));
    })));
  } else if (has("marks")) {
    const laid = opts.filter((o) => Array.isArray(o.marks));
    rest = opts.filter((o) => !laid.includes(o));
    panel.append(h("div", { class: "shop" }, laid.map((o) =>
      button(o, [h("strong", {}, o.marks.length ? `pile ${o.marks.join(" + ")}` : "nothing"),
        h("span", { class: "dest" }, o.detail)], "wide"))));
  } else if (opts.length && opts.every((o) => o.value !== undefined)) {
    panel.append(h("div", { class: "cards" }, opts.map((o) =>
      button(o, [h("span", { class: "card big" }, o.value), h("span", { class: "dest" }, o.detail)], "cardbtn"))));
  } else {
    rest = opts;
  }
  // options that name a group (a part of a compound turn) are listed under its heading
  const groups = [...new Set(rest.map((o) => o.group))];
  if (rest.length && groups.some((g) => g)) {
    for (const g of groups) {
      panel.append(h("h3", { class: "group" }, g || "Other"),
        h("div", { class: "options" }, rest.filter((o) => o.group === g).map(plain)));
    }
  } else if (rest.length) panel.append(h("div", { class: "options" }, rest.map(plain)));
  if (Array.isArray(view.hand)) {
    panel.append(h("p", { class: "hint" }, "Your hand: ",
      view.hand.flatMap((count, v) => Array(count).fill(v)).join(" ") || "—"));
  }
  numberKeys(panel);
  if (c.targets && Object.keys(c.targets).length) panel.append(h("p", { class: "hint" }, "Or click a highlighted place on the board; number keys pick a numbered choice."));
  return panel;
}

function withHover(button, option) {
  const text = `${option.label}: ${option.detail}`;
  button.setAttribute("aria-label", option.legal ? text : `${text} (not legal now)`);
  button.title = option.legal ? text : `not legal now: ${option.detail}`;
  return button;
}

// Keys 1-9 pick the first nine legal choices, in the order the panel lists them.
function numberKeys(panel) {
  let k = 0;
  for (const b of panel.querySelectorAll("button.choice:not([disabled])")) {
    if (++k > 9) break;
    b.dataset.key = String(k);
    b.prepend(h("kbd", { "aria-hidden": "true" }, String(k)));
  }
}

function choiceKeys(event) {
  if (!location.hash.startsWith("#/game/") || event.ctrlKey || event.metaKey || event.altKey) return;
  if (["INPUT", "SELECT", "TEXTAREA"].includes(event.target.tagName) || !/^[1-9]$/.test(event.key)) return;
  const b = document.querySelector(`#decision button.choice[data-key="${event.key}"]:not([disabled])`);
  if (b) { event.preventDefault(); b.click(); }
}
document.addEventListener("keydown", choiceKeys);

// The drawn board as the main way to act: each place the game's view names as an option's
// target ("targets": id -> its box on the board and its name) becomes a clickable region
// over the SVG, highlighted where a legal choice lies, saying why on hover where none does.
// A place with one legal choice chooses it; with several, a small menu lists them.
function boardTargets(board, view) {
  const c = view.choices;
  const svg = board.querySelector("svg");
  if (!c || !c.targets || !svg) return;
  const ns = "http://www.w3.org/2000/svg";
  const layer = document.createElementNS(ns, "g");
  layer.setAttribute("class", "targets");
  for (const [id, target] of Object.entries(c.targets)) {
    const options = c.options.filter((o) => (o.targets || []).includes(id));
    if (!options.length) continue;
    const legal = options.filter((o) => o.legal);
    const [x, y, w, hgt] = target.box;
    const r = document.createElementNS(ns, "rect");
    for (const [k, v] of Object.entries({ x: x - 2, y: y - 2, width: w + 4, height: hgt + 4, rx: 8, "data-target": id,
      class: `target ${legal.length ? "legal" : "illegal"}`, tabindex: legal.length ? 0 : -1, role: "button" })) r.setAttribute(k, v);
    const title = document.createElementNS(ns, "title");
    title.textContent = legal.length
      ? `${target.label}: ${legal.map((o) => o.label).join(" · ")}`
      : `${target.label}: not legal now: ${[...new Set(options.map((o) => o.detail || o.label))].join("; ")}`;
    r.setAttribute("aria-label", title.textContent);
    r.append(title);
    const act = (event) => {
      if (!legal.length) return;
      if (legal.length === 1) choose(view, legal[0], null);
      else targetMenu(event, target, legal, view);
    };
    r.addEventListener("click", act);
    r.addEventListener("keydown", (event) => { if (event.key === "Enter" || event.key === " ") { event.preventDefault(); act(event); } });
    layer.append(r);
  }
  svg.append(layer);
}

function closeTargetMenu() {
  const old = document.getElementById("target-menu");
  if (old) old.remove();
}

function targetMenu(event, target, options, view) {
  closeTargetMenu();
  const box = event.target.getBoundingClientRect();
  const x = event.clientX || box.left + box.width / 2, y = event.clientY || box.top + box.height / 2;
  const menu = h("div", { id: "target-menu", role: "menu", style: `left:${Math.round(x + window.scrollX)}px;top:${Math.round(y + window.scrollY)}px` },
    h("div", { class: "menu-head" }, target.label),
    options.map((o) => h("button", { class: "target-choice", role: "menuitem", "data-action": o.action, title: o.detail || o.label,
      onclick: () => { closeTargetMenu(); choose(view, o, null); } }, o.label)));
  document.body.append(menu);
  menu.querySelector("button").focus();
  setTimeout(() => document.addEventListener("click", (e) => { if (!menu.contains(e.target)) closeTargetMenu(); }, { once: true }), 0);
  menu.addEventListener("keydown", (e) => { if (e.key === "Escape") closeTargetMenu(); });
}

async function choose(view, option, event) {
  if (!option.legal || current !== view) return;
  // drawn at once: the chosen button marked, every choice locked, the move named
  for (const b of document.querySelectorAll("button.choice")) b.disabled = true;
  for (const t of document.querySelectorAll(".board .target")) t.classList.add("locked");
  closeTargetMenu();
  const picked = (event && event.currentTarget) || document.querySelector(`#decision button.choice[data-action="${option.action}"]`);
  if (picked) picked.classList.add("picked");
  const panel = document.getElementById("decision");
  panel.prepend(h("div", { class: "my-move", id: "my-move" }, seatDot(view.seat), "You: ", h("strong", {}, option.label)));
  const status = document.getElementById("status");
  if (status) status.textContent = `Round ${view.round} · your move is sent…`;
  let next;
  try {
    next = await api(`/api/live/games/${view.id}/actions`, { body: { action: option.action, decision: view.decision } });
  } catch (err) {
    if (err.status) toast(err.message);
    else setConnection("no answer");
    // whatever the server has now: the move applied or not, the agents' turn or yours
    for (let failures = 1; onGamePage(view.id); failures++) {
      try {
        next = await api(`/api/live/games/${view.id}`);
        break;
      } catch (again) {
        if (again.status === 404) return follow(view.id);
        setConnection(again.status ? `${again.status}` : "no answer");
        await sleep(Math.min(250 * 2 ** failures, 4000));
      }
    }
    setConnection(null);
    if (!next) return;
    if (!err.status && next.decision === view.decision) toast("Your move did not reach the server: choose again.");
  }
  if (!onGamePage(view.id)) return;
  renderGame(next);
  follow(view.id);
}

function recentPanel(view) {
  if (!view.recent.length) return null;
  // the last move's lines end the list: marked, as in the box above
  const last = (view.last_move && view.last_move.lines) || [];
  const tail = last.length && last.every((line, k) => view.recent[view.recent.length - last.length + k] === line)
    ? view.recent.length - last.length : view.recent.length;
  return h("section", { class: "panel recent" },
    h("h2", {}, view.over ? "The last decisions" : "Since your last decision"),
    h("ul", { class: "events" }, view.recent.map((line, k) => h("li", { class: (line.startsWith("--") || line.startsWith("==") ? "round" : "") + (k >= tail ? " last" : "") }, line))));
}

async function showLog(id) {
  const data = await api(`/api/games/${id}/log`);
  const dialog = h("dialog", { class: "log" },
    h("h2", {}, "The game so far, as your seat saw it"),
    h("ul", { class: "events" }, data.lines.map((line) => h("li", { class: line.startsWith("--") || line.startsWith("==") ? "round" : "" }, line))),
    h("form", { method: "dialog" }, h("button", {}, "Close")));
  document.body.append(dialog);
  dialog.addEventListener("close", () => dialog.remove());
  dialog.showModal();
}

// The final score: one column per seat, one row per part of the score, so a game with many
// parts never makes the table wider than its panel. The verdict is the game's own (its web
// view), never a rule of this page.
function resultPanel(result, names, seat) {
  if (!result) return null;
  const rows = result.breakdown;
  const columns = result.columns || [{ key: "total", label: "total" }, { key: "rank", label: "rank" }];
  const won = new Set(rows.length > 1 ? result.winners || [] : []);
  const cls = (r, extra = "") => [extra, won.has(r.player) ? "winner" : "", r.player === seat ? "me" : ""].filter(Boolean).join(" ") || null;
  const cell = (r, col) => {
    const parts = col.parts && Array.isArray(r[col.parts]) ? `${col.parts} ${r[col.parts].join(" + ")}` : null;
    return h("td", { class: cls(r, col.key === "total" ? "total" : ""), title: parts, "data-seat": r.player }, r[col.key]);
  };
  return h("section", { class: "panel result", id: "result" },
    h("h2", { class: "verdict" }, result.verdict || "Final score"),
    h("table", { class: "score" },
      h("thead", {}, h("tr", {}, h("th", {}, ""), rows.map((r) =>
        h("th", { class: cls(r, "seat"), scope: "col", "data-seat": r.player }, seatDot(r.player), names[r.player])))),
      h("tbody", {}, columns.map((col) => h("tr", { class: col.key === "total" ? "total" : null, "data-key": col.key },
        h("th", { scope: "row" }, col.label), rows.map((r) => cell(r, col)))))),
    result.note ? h("p", { class: "hint" }, result.note) : null);
}

// -- policy insight ----------------------------------------------------------------------------
function insightPanel(entries, names, pending, release) {
  if (!entries || (!entries.length && !pending)) return null;
  const panel = h("section", { class: "panel insight", id: "insight" }, h("h2", {}, "Policy insight"));
  if (pending) {
    panel.append(h("p", { class: "hint" }, `${pending} decision${pending > 1 ? "s" : ""} by checkpoints or search: shown at ${release || "the end of the game"} (they depend on what your seat may not see yet).`));
  }
  for (const entry of [...entries].reverse()) panel.append(insightEntry(entry, names));
  return panel;
}

function insightEntry(entry, names) {
  const head = h("div", { class: "ins-head" }, seatDot(entry.seat), `${names[entry.seat]} · round ${entry.round} · chose `, h("strong", {}, entry.label));
  const bars = h("div", { class: "bars" });
  let foot;
  if (entry.kind === "policy") {
    for (const t of entry.top) bars.append(bar(t.label, t.p, percent(t.p), t.action === entry.action));
    foot = entry.value === null || entry.value === undefined ? "no value head" : `value estimate ${entry.value >= 0 ? "+" : ""}${entry.value.toFixed(3)}`;
    foot += ` · ${entry.legal} legal`;
  } else if (entry.kind === "search") {
    const total = entry.iterations || 1;
    const priors = entry.top.some((t) => typeof t.prior === "number");  // a search guided by a network
    for (const t of entry.top) bars.append(bar(t.label, t.visits / total, `${t.visits} · ${t.q === null ? "–" : t.q.toFixed(2)}${priors ? ` · ${percent(t.prior)}` : ""}`, t.action === entry.action));
    foot = entry.iterations ? `${entry.iterations} iterations · visits · mean win chance${priors ? " · network prior" : ""}` : "only one legal action: no search";
  } else {
    foot = JSON.stringify(entry);
  }
  return h("div", { class: "ins-entry", "data-decision": entry.decision }, head, bars, h("div", { class: "ins-foot" }, foot));
}

function bar(label, fraction, text, chosen) {
  return h("div", { class: "bar-row" + (chosen ? " chosen" : "") },
    h("span", { class: "lbl" }, label),
    h("span", { class: "bar" }, h("span", { style: `width:${Math.max(1, Math.round(100 * fraction))}%` })),
    h("span", { class: "num" }, text));
}

// -- replays ------------------------------------------------------------------------------
async function showReplays() {
  setNav("replays");
  await loadSetup();
  setTitle(null, "Replays");
  const records = await api("/api/replays");
  const file = h("input", { type: "file", accept: ".json,application/json", id: "upload" });
  file.addEventListener("change", async () => {
    if (!file.files.length) return;
    try {
      const { id } = await api("/api/replays", { body: await file.files[0].text() });
      location.hash = `#/replay/${id}`;
    } catch (err) {
      toast(err.message);
    }
  });
  app.replaceChildren(h("section", { class: "panel wide" },
    h("h2", {}, "Replays"),
    h("p", { class: "hint" }, "Finished games of this server, records in the folder given with --records, and uploads. Open a record from art-gallery eval --save-games (add --insight to see what checkpoints and search agents thought):"),
    h("label", { class: "upload" }, "Upload a record ", file),
    records.length ? h("table", { class: "list" },
      h("thead", {}, h("tr", {}, ["Game", "Players", "Decisions", "Scores", "Source", ""].map((t) => h("th", {}, t)))),
      h("tbody", {}, records.map((r) => h("tr", { "data-record": r.id },
        h("td", {}, r.title || r.game),
        h("td", {}, r.names.map((name, p) => h("span", { class: "who" }, seatDot(p, paletteOf(r.game)), name))),
        h("td", {}, r.decisions), h("td", {}, r.totals ? r.totals.join(" / ") : "–"),
        h("td", {}, r.source + (r.file ? ` (${r.file})` : "") + (r.insight ? " · insight" : "")),
        h("td", { class: "actions" }, h("a", { class: "button", href: `#/replay/${r.id}` }, "Replay"))))))
      : h("p", { class: "hint" }, "No records yet.")));
}

let replayRequest = 0;
const timelines = {}; // record id -> GET /api/replays/{id}/timeline, fetched once
let autoplay = null; // { id, ms, timer } while a replay plays by itself

async function timelineOf(id) {
  if (!timelines[id]) timelines[id] = api(`/api/replays/${id}/timeline`).catch(() => null);
  return timelines[id];
}

async function showReplay(id, params) {
  setNav("replays");
  await loadSetup();
  const step = Number(params.get("step") || 0);
  const viewer = params.get("viewer") || "all";
  const seq = ++replayRequest;
  const [view, timeline] = await Promise.all([api(`/api/replays/${id}?step=${step}&viewer=${viewer}`), timelineOf(id)]);
  if (seq !== replayRequest) return; // a later step was asked for meanwhile
  renderReplay(view, timeline);
}

function goReplay(view, step, viewer = view.viewer === null ? "all" : view.viewer) {
  step = Math.max(0, Math.min(view.steps, step));
  history.replaceState(null, "", `#/replay/${view.id}?step=${step}&viewer=${viewer}`);
  showReplay(view.id, new URLSearchParams(`step=${step}&viewer=${viewer}`)).catch((err) => toast(err.message));
}

function stopAutoplay() {
  if (autoplay) clearTimeout(autoplay.timer);
  autoplay = null;
}

function toggleAutoplay(view, ms) {
  if (autoplay) {
    stopAutoplay();
    return goReplay(view, view.step); // drawn again, with the Play button
  }
  autoplay = { id: view.id, ms, timer: null };
  goReplay(view, view.step >= view.steps ? 0 : view.step + 1);
}

// The next step of a playing replay, once this one is drawn.
function scheduleAutoplay(view) {
  if (!autoplay) return;
  if (autoplay.id !== view.id || !location.hash.startsWith(`#/replay/${view.id}`)) return stopAutoplay();
  clearTimeout(autoplay.timer);
  if (view.step >= view.steps) return stopAutoplay();
  autoplay.timer = setTimeout(() => goReplay(view, view.step + 1), autoplay.ms);
}

function renderReplay(view, timeline) {
  useColoursOf(view.game);
  setTitle(view.title, `Replay ${view.step} / ${view.steps}`);
  const slider = h("input", { type: "range", min: 0, max: view.steps, value: view.step, id: "scrub", "aria-label": "step" });
  slider.addEventListener("input", () => { stopAutoplay(); goReplay(view, Number(slider.value)); });
  const viewer = h("select", { id: "viewer", "aria-label": "view as" },
    h("option", { value: "all" }, "Spectator (all cards)"),
    view.names.map((name, p) => h("option", { value: p }, `${name}'s view`)));
  viewer.value = view.viewer === null ? "all" : String(view.viewer);
  viewer.addEventListener("change", () => goReplay(view, view.step, viewer.value));
  const btn = (label, id, to, title) => h("button", { id, title, disabled: to < 0 || to > view.steps || to === view.step, onclick: () => { stopAutoplay(); goReplay(view, to); } }, label);
  const d = view.decision;
  const speed = h("select", { id: "speed", "aria-label": "autoplay speed" },
    [[1200, "slow"], [500, "normal"], [150, "fast"]].map(([ms, label]) => h("option", { value: ms }, label)));
  speed.value = String(autoplay ? autoplay.ms : 500);
  speed.addEventListener("change", () => { if (autoplay) autoplay.ms = Number(speed.value); });
  const playing = !!autoplay && autoplay.id === view.id;
  const side = h("aside", { class: "side" },
    h("section", { class: "panel controls" },
      h("div", { class: "stepper" },
        btn("|◀", "first", 0, "first (Home)"), btn("◀", "prev", view.step - 1, "previous (←)"),
        h("span", { class: "count", id: "step" }, `${view.step} / ${view.steps}`),
        btn("▶", "next", view.step + 1, "next (→)"), btn("▶|", "last", view.steps, "last (End)")),
      slider,
      h("div", { class: "autoplay" },
        h("button", { id: "play", class: playing ? "primary" : "", title: "play by itself (space)", onclick: () => toggleAutoplay(view, Number(speed.value)) }, playing ? "❚❚ Pause" : "▶ Play"),
        speed),
      timeline ? jumpControls(view, timeline) : null,
      h("label", {}, "View as ", viewer),
      h("div", { class: "export" }, "Export this frame: ",
        h("button", { id: "export-svg", onclick: () => exportFrame(view, "svg") }, "SVG"),
        h("button", { id: "export-png", onclick: () => exportFrame(view, "png") }, "PNG"))),
    timeline ? chartPanel(view, timeline) : null,
    h("section", { class: "panel", id: "decision-info" },
      h("h2", {}, d ? `Decision ${d.index + 1} · round ${d.round}` : "Before the first decision"),
      d ? h("p", { class: "who" }, seatDot(d.seat), d.name, ": ", h("strong", {}, d.label)) : h("p", {}, `Round ${view.round}: the deal.`),
      view.events.length ? h("ul", { class: "events" }, view.events.map((line) => h("li", {}, line))) : null),
    view.insight ? h("section", { class: "panel insight" }, h("h2", {}, "Policy insight"), insightEntry(view.insight, view.names))
      : (d && view.has_insight ? h("section", { class: "panel insight" }, h("p", { class: "hint" }, `No insight for this decision: not a checkpoint or search seat, or hidden from this view until ${view.insight_release || "the end of the game"}.`)) : null),
    view.result ? resultPanel(view.result, view.names, view.viewer) : null);
  app.replaceChildren(h("div", { class: "play replay", "data-step": view.step, "data-round": view.round }, boardPanel(view.board, view.drawn), side));
  replayKeys.view = view;
  scheduleAutoplay(view);
}

// Jumps: to the step where a round begins, to a seat's previous or next decision.
function jumpControls(view, timeline) {
  const rounds = [...new Set(timeline.rounds)];
  const round = h("select", { id: "round", "aria-label": "jump to round" },
    h("option", { value: "" }, "Jump to round…"), rounds.map((r) => h("option", { value: r }, `Round ${r}`)));
  round.addEventListener("change", () => {
    if (round.value === "") return;
    stopAutoplay();
    goReplay(view, timeline.rounds.indexOf(Number(round.value)));
  });
  const seat = h("select", { id: "seat-jump", "aria-label": "seat" },
    timeline.names.map((name, p) => h("option", { value: p }, name)));
  seat.value = String(jumpControls.seat !== undefined && jumpControls.seat < timeline.players ? jumpControls.seat : 0);
  seat.addEventListener("change", () => { jumpControls.seat = Number(seat.value); });
  // step s shows the state after decision s - 1: a seat's decision k is step k + 1
  const find = (dir) => {
    const p = Number(seat.value);
    jumpControls.seat = p;
    const steps = timeline.deciders.map((who, k) => (who === p ? k + 1 : -1)).filter((s) => s >= 0);
    const to = dir > 0 ? steps.find((s) => s > view.step) : [...steps].reverse().find((s) => s < view.step);
    if (to === undefined) return toast(`${timeline.names[p]} has no ${dir > 0 ? "later" : "earlier"} decision`);
    stopAutoplay();
    goReplay(view, to);
  };
  return h("div", { class: "jumps" }, round,
    h("span", { class: "seat-jump" }, seat,
      h("button", { id: "seat-prev", title: "this seat's previous decision", onclick: () => find(-1) }, "◀"),
      h("button", { id: "seat-next", title: "this seat's next decision", onclick: () => find(1) }, "▶")));
}

// Each seat's running score and, where the record has insight, its value, over the game;
// the current step is marked and a click jumps to the step under it.
function chartPanel(view, timeline) {
  const W = 360, H = 96, PAD = 6, n = timeline.steps || 1;
  const ns = "http://www.w3.org/2000/svg";
  const el = (tag, attrs, text) => {
    const e = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    return e;
  };
  const x = (step) => PAD + (W - 2 * PAD) * step / n;
  const chart = (id, title, series, lo, hi) => {
    const svg = el("svg", { viewBox: `0 0 ${W} ${H + 14}`, width: "100%", class: "chart", id, role: "img", "aria-label": title });
    const y = (v) => PAD + (H - 2 * PAD) * (hi === lo ? 0.5 : (hi - v) / (hi - lo));
    svg.append(el("rect", { x: 0, y: 0, width: W, height: H, fill: "#fff", stroke: "#d3c8b3" }));
    svg.append(el("text", { x: PAD, y: H + 11, "font-size": 10, fill: "#7a7368" }, `${title} · ${lo.toFixed(lo % 1 ? 2 : 0)}–${hi.toFixed(hi % 1 ? 2 : 0)}`));
    for (const [seat, points] of series) {
      if (!points.length) continue;
      const colour = colours[seat % colours.length];
      svg.append(el("polyline", { class: "line", "data-seat": seat, fill: "none", stroke: colour, "stroke-width": 1.8,
        points: points.map(([s, v]) => `${x(s).toFixed(1)},${y(v).toFixed(1)}`).join(" ") }));
      if (points.length < 40) for (const [s, v] of points) svg.append(el("circle", { cx: x(s), cy: y(v), r: 2.2, fill: colour }));
    }
    svg.append(el("line", { class: "marker", "data-step": view.step, x1: x(view.step), x2: x(view.step), y1: 0, y2: H, stroke: "#e2a400", "stroke-width": 2 }));
    svg.addEventListener("click", (event) => {
      const box = svg.getBoundingClientRect();
      const step = Math.round(((event.clientX - box.left) * W / box.width - PAD) / (W - 2 * PAD) * n);
      stopAutoplay();
      goReplay(view, step);
    });
    return svg;
  };
  const scores = timeline.scores.flat();
  const scoreSeries = timeline.names.map((_, p) => [p, timeline.scores.map((row, s) => [s, row[p]])]);
  const panel = h("section", { class: "panel timeline", id: "chart" }, h("h2", {}, "Over the game"),
    h("div", { class: "legend" }, timeline.names.map((name, p) => h("span", { class: "who" }, seatDot(p), name))),
    chart("chart-score", "running score", scoreSeries, Math.min(0, ...scores), Math.max(1, ...scores)));
  const values = timeline.values;
  if (values.length) {
    const kinds = [...new Set(values.map((v) => v.kind))];
    const series = timeline.names.map((_, p) => [p, values.filter((v) => v.seat === p).map((v) => [v.step, v.value])]);
    const vs = values.map((v) => v.value);
    const [lo, hi] = kinds.every((k) => k.startsWith("win chance")) ? [0, 1] : [Math.min(-1, ...vs), Math.max(1, ...vs)];
    panel.append(chart("chart-value", kinds.join(", "), series, lo, hi));
  } else {
    panel.append(h("p", { class: "hint", id: "no-values" }, view.has_insight
      ? "No values to chart: this record's insight holds no value estimate (a checkpoint without a value head gives its move probabilities only)."
      : "No values recorded: this record has no checkpoint or search insight (art-gallery eval --insight records them)."));
  }
  return panel;
}

// The board of this step as an SVG file, or a PNG drawn from it (a text board becomes an SVG
// of its lines). Everything comes from the page: nothing is asked of the server.
function frameSvg() {
  const svg = document.querySelector(".board svg");
  if (svg) {
    const clone = svg.cloneNode(true);
    clone.setAttribute("xmlns", "http://www.w3.org/2000/svg");
    const box = svg.viewBox && svg.viewBox.baseVal;
    if (!clone.getAttribute("width") && box) { clone.setAttribute("width", box.width); clone.setAttribute("height", box.height); }
    return new XMLSerializer().serializeToString(clone);
  }
  const lines = (document.querySelector(".board").textContent || "").split("\n");
  const esc = (s) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  const width = 8 * Math.max(20, ...lines.map((l) => l.length)) + 20, height = 17 * lines.length + 20;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#fbf8f1"/>` +
    `<text font-family="DejaVu Sans Mono, monospace" font-size="13" xml:space="preserve">` +
    lines.map((l, k) => `<tspan x="10" y="${24 + 17 * k}">${esc(l)}</tspan>`).join("") + "</text></svg>";
}

function download(blob, name) {
  const a = h("a", { href: URL.createObjectURL(blob), download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 5000);
}

function exportFrame(view, format) {
  const text = frameSvg();
  const name = `${view.id}-step-${view.step}`;
  if (format === "svg") return download(new Blob([text], { type: "image/svg+xml" }), `${name}.svg`);
  const img = new Image();
  img.onload = () => {
    const canvas = h("canvas", { width: img.naturalWidth * 2, height: img.naturalHeight * 2 });
    const ctx = canvas.getContext("2d");
    ctx.scale(2, 2);
    ctx.drawImage(img, 0, 0);
    canvas.toBlob((blob) => download(blob, `${name}.png`), "image/png");
  };
  img.onerror = () => toast("this frame could not be drawn as a PNG");
  img.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(text);
}

function replayKeys(event) {
  const view = replayKeys.view;
  if (!view || !location.hash.startsWith("#/replay/") || event.target.tagName === "INPUT" || event.target.tagName === "SELECT") return;
  if (event.key === "ArrowRight") { stopAutoplay(); goReplay(view, view.step + 1); }
  else if (event.key === "ArrowLeft") { stopAutoplay(); goReplay(view, view.step - 1); }
  else if (event.key === "Home") { stopAutoplay(); goReplay(view, 0); }
  else if (event.key === "End") { stopAutoplay(); goReplay(view, view.steps); }
  else if (event.key === " " && event.target.tagName !== "BUTTON") {
    event.preventDefault();
    toggleAutoplay(view, autoplay ? autoplay.ms : 500);
  }
}
document.addEventListener("keydown", replayKeys);
