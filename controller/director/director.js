// The director's page: every board of the club, live from /api/events, each board drawn by the
// station page's own code (board.js); team matches (RULES.md B18), the round's results, the commands.
import { drawBoard, fmtClock, VIEWBOX } from "./board.js";
import { connectLive } from "./live.js";

const $ = (id) => document.getElementById(id);
const cards = new Map();  // board name -> { card, svg, drawn (the state seq drawn), board, at }
let linked = true;  // the director's own broker connection: without it no station's state is known

function setLink(up) {
  $("link").className = up ? "up" : "down";
  $("link").textContent = up ? "live" : "reconnecting…";
  document.body.dataset.live = up ? "1" : "0";
}

function line(parent, cls) {
  const d = document.createElement("div");
  d.className = `line ${cls}`;
  parent.appendChild(d);
  return d;
}

function card(name) {
  let c = cards.get(name);
  if (c) return c;
  const el = document.createElement("article");
  el.className = "card";
  el.dataset.board = name;
  const h = document.createElement("h3");
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", VIEWBOX);
  svg.setAttribute("class", "board");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", `board ${name}`);
  el.append(h, svg);
  c = { card: el, h, svg, drawn: null, board: null, at: 0,
    score: line(el, "score"), roll: line(el, "on-roll"), clock: line(el, "clock"), station: line(el, "station"),
    answer: line(el, "answer") };
  c.rulings = document.createElement("ul");
  c.rulings.className = "rulings";
  el.appendChild(c.rulings);
  cards.set(name, c);
  return c;
}

// the running player's time counts down between states (a station sends one per event)
function clockText(c) {
  const k = c.board && c.board.clock;
  if (!k) return "no clock";
  const gone = k.running && !k.paused ? (performance.now() - c.at) / 1000 : 0;
  const left = (who) => Math.max(0, k[who] - (k.running === who ? gone : 0));
  return `clock: light ${fmtClock(left("light"))} · dark ${fmtClock(left("dark"))}` +
    `${k.running ? " · running: " + k.running : ""}${k.paused ? " · paused" : ""}`;
}

function drawCard(b) {
  const c = card(b.board);
  c.board = b;
  c.at = performance.now();
  const s = b.score || {};
  c.card.classList.toggle("offline", b.online === false);
  c.card.dataset.online = b.online === null ? "" : b.online ? "1" : "0";
  c.card.dataset.winner = b.winner || "";
  c.h.textContent = `Board ${b.board}: ${b.light} (light) v ${b.dark} (dark)`;
  if (c.drawn !== b.state_seq) {  // redraw a board only when its station sent a newer state
    drawBoard(c.svg, b.drawing);
    c.drawn = b.state_seq;
  }
  c.score.textContent = s.light === undefined ? "score: –" :
    `score: ${b.light} ${s.light} – ${s.dark} ${b.dark}` +
    `${s.match_length ? ` (to ${s.match_length})` : " (money)"}${s.crawford ? " · Crawford game" : ""}` +
    `${b.winner ? ` · ${b[b.winner]} won` : ""}`;
  c.roll.textContent = b.winner ? "" : `on roll: ${b.on_roll ? `${b[b.on_roll]} (${b.on_roll})` : "–"}` +
    `${(b.dice || []).length ? " · dice " + b.dice.map((d) => d.value ?? "?").join("-") : ""}`;
  c.clock.textContent = clockText(c) + (b.paused ? " · paused by the director" : "");
  const unseen = linked ? "not heard from" : "unknown (the director is offline)";
  c.station.className = `line station ${b.online ? "up" : b.online === null ? "unknown" : "down"}`;
  c.station.textContent = `station ${b.online === null ? unseen : b.online ? "online" : "offline"}` +
    ` · ${b.seq + 1} entries${b.broken ? " · " + b.broken : ""}`;
  // the station's answer to the last round: a refusal says why (a match in progress) and how to force it
  const a = b.answer;
  c.answer.className = `line answer${a ? " " + a.status : ""}`;
  c.answer.dataset.status = a ? a.status : "";
  c.answer.textContent = a ? `round ${a.round} ${a.status}: ${a.said}` : "";
  c.rulings.replaceChildren(...(b.rulings || []).slice().reverse().map((r) => {
    const li = document.createElement("li");
    li.dataset.rule = r.rule;
    li.textContent = `[${r.rule}] ${r.text}`;
    return li;
  }));
  return c.card;
}

function drawTeams(teams) {
  $("teams").replaceChildren(...teams.map((t) => {
    const d = document.createElement("div");
    d.className = "team";
    Object.assign(d.dataset, { home: t.home, away: t.away, homeWins: t.home_wins, awayWins: t.away_wins,
      winner: t.winner || "" });
    const h = document.createElement("h2");
    h.textContent = `${t.home} ${t.home_wins} – ${t.away_wins} ${t.away}`;
    if (t.winner) {
      const w = document.createElement("span");
      w.className = "won";
      w.textContent = ` · ${t.winner} win the team match`;
      h.appendChild(w);
    }
    const p = document.createElement("div");
    p.className = "small";
    p.textContent = `team match, three boards, two wins needed (RULES.md B18); ${t.home} play light · ` +
      t.by_board.map(([board, team]) => `board ${board}: ${team || "playing"}`).join(" · ");
    d.append(h, p);
    return d;
  }));
}

// the round's result table: the rows of the CSV (controller.director.results), as the server made them
function drawResults(club) {
  $("results-title").textContent = club.rounds.length ? `Results: rounds ${club.rounds.join(", ")}` :
    "Results (no round started from this page: every board's matches)";
  $("per-round").replaceChildren(...club.rounds.map((n) => {
    const a = document.createElement("a");
    a.href = `/round.csv?round=${n}`;
    a.textContent = `round ${n} (CSV)`;
    return a;
  }));
  $("results").tBodies[0].replaceChildren(...club.results.map((r) => {
    const tr = document.createElement("tr");
    tr.dataset.board = r.board;
    tr.dataset.round = r.round;
    for (const v of [r.round, r.board, r.light, r.dark, r.match_length, r.light_score === "" ? "" :
      `${r.light_score} – ${r.dark_score}`, r.winner]) {
      const td = document.createElement("td");
      td.textContent = v;
      tr.appendChild(td);
    }
    return tr;
  }));
}

function render(club) {
  $("club").textContent = club.club;
  linked = club.director.online;
  document.body.dataset.director = linked ? "online" : "offline";
  $("director").hidden = linked;
  $("director").textContent = linked ? "" : `director offline: ${club.director.said}`;
  $("count").textContent = `${club.boards.length} boards · ${club.boards.filter((b) => b.online).length} online`;
  $("none").hidden = club.boards.length > 0;
  const main = $("boards");
  for (const b of club.boards) {
    const el = drawCard(b);
    if (el.parentNode !== main) main.appendChild(el);
  }
  drawTeams(club.teams);
  drawResults(club);
  document.body.dataset.boards = club.boards.length;
}

async function command(body) {
  const said = $("said");
  try {
    const r = await fetch("/api/command", { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ pin: $("pin").value, ...body }) });
    said.textContent = (await r.json()).said;
    said.className = r.ok ? "" : "bad";
  } catch (e) {
    said.textContent = `${body.command}: the director does not answer (${e})`;
    said.className = "bad";
  }
}

function startRound() {
  const pairings = $("pairings").value.split("\n").filter((l) => l.trim()).map((l) => {
    const [board, light, dark, points] = l.trim().split(/\s+/);
    return { board, light, dark, match_length: parseInt(points || "0", 10) };
  });
  command({ command: "round", round: parseInt($("round-input").value, 10), pairings,
    force: $("force").checked });
}

setInterval(() => { for (const c of cards.values()) if (c.board) c.clock.textContent = clockText(c) +
  (c.board.paused ? " · paused by the director" : ""); }, 1000);

document.addEventListener("DOMContentLoaded", () => {
  $("pause").addEventListener("click", () => command({ command: "pause" }));
  $("resume").addEventListener("click", () => command({ command: "resume" }));
  $("start-round").addEventListener("click", startRound);
  connectLive("/api/events", { onState: render, onLink: setLink });
});
