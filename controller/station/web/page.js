// The station's page: draws the state JSON (GET /api/state, live from /api/events) and sends the
// referee's actions (POST /api/action). Plain ES module, no build step.
const NS = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);
const W = 680 / 12, X0 = 20, BAR = 40, TOP = 20, BOTTOM = 440, DEPTH = 180, UNSURE = 0.5;
let state = null, editing = null, source = null, retryTimer = null;
// a stream that goes silent (a half-open link: Wi-Fi dropped, a laptop slept) is opened anew after
// three of the station's ping intervals without a word; the pings say the interval
let watchdog = null, silentMs = 46000;

function columnX(i) { return X0 + i * W + (i >= 6 ? BAR : 0); }
// the camera's slots: the top row 12..23 from the left, the bottom row 11..0 from the left
function slotPlace(slot) {
  return slot >= 12 ? { col: slot - 12, top: true } : { col: 11 - slot, top: false };
}
function el(name, attrs, parent) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}
function text(x, y, s, attrs, parent) {
  const t = el("text", { x, y, "text-anchor": "middle", ...attrs }, parent);
  t.textContent = s;
  return t;
}

function drawBoard(snap) {
  const svg = $("board");
  svg.replaceChildren();
  const board = editing || (snap && snap.board);
  el("rect", { x: X0 + 6 * W, y: TOP, width: BAR, height: BOTTOM - TOP, fill: "#2a1c10" }, svg);
  el("rect", { x: 750, y: TOP, width: 60, height: BOTTOM - TOP, fill: "#2a1c10" }, svg);
  text(780, 236, "off", { fill: "#aaa", "font-size": 12 }, svg);
  const movable = new Set(board ? board.movable_slots || [] : []);
  const lit = new Set(snap && snap.leds ? snap.leds.zones : []);
  for (let slot = 0; slot < 24; slot++) {
    const { col, top } = slotPlace(slot);
    const x = columnX(col), base = top ? TOP : BOTTOM, dir = top ? 1 : -1;
    const [colour, count] = board ? board.slots[slot] : [null, 0];
    const conf = board && board.confidence && board.confidence.length === 24 ? board.confidence[slot] : 1;
    const g = el("g", {
      class: "point", "data-slot": slot, "data-colour": colour || "", "data-count": count,
      "data-confidence": conf.toFixed(2), "data-unsure": conf < UNSURE ? "1" : "0",
    }, svg);
    el("polygon", {
      points: `${x},${base} ${x + W},${base} ${x + W / 2},${base + dir * DEPTH}`,
      fill: col % 2 ? "#c9a66b" : "#7a3b2e",
      stroke: movable.has(slot) ? "#6d6" : conf < UNSURE ? "#f44" : "none",
      "stroke-width": movable.has(slot) || conf < UNSURE ? 3 : 0,
      "stroke-dasharray": conf < UNSURE ? "6 4" : "",
    }, g);
    el("rect", { x: x + 6, y: top ? 4 : 448, width: W - 12, height: 8, rx: 3,
      fill: lit.has(slot) ? "#ffd23f" : "#333", class: lit.has(slot) ? "led lit" : "led" }, g);
    const r = DEPTH / 10 - 1;  // five checkers fill a point; more are numbered
    for (let k = 0; k < Math.min(count, 5); k++) {
      el("circle", { cx: x + W / 2, cy: base + dir * (r + 1 + k * 2 * (r + 1)), r,
        fill: colour === "light" ? "#f4efe4" : "#9b1c1c", stroke: "#111" }, g);
    }
    if (count > 5) text(x + W / 2, base + dir * (r + 1 + 4 * 2 * (r + 1)) + 5, String(count),
      { fill: colour === "light" ? "#111" : "#fff", "font-weight": "bold" }, g);
    text(x + W / 2, base + dir * (DEPTH + 14) + 4, `${count || ""}${conf < 1 ? " " + Math.round(conf * 100) + "%" : ""}`,
      { fill: conf < UNSURE ? "#f77" : "#ddd", "font-size": 11, class: "reading" }, g);
    g.addEventListener("click", () => editPoint(slot));
  }
  if (board) {
    const bx = X0 + 6 * W + BAR / 2;
    for (const [who, y] of [["light", 300], ["dark", 160]]) {
      const n = (board.bar || {})[who] || 0;
      if (n) {
        el("circle", { cx: bx, cy: y, r: 16, fill: who === "light" ? "#f4efe4" : "#9b1c1c", stroke: "#111" }, svg);
        text(bx, y + 5, String(n), { fill: who === "light" ? "#111" : "#fff", class: "bar", "data-colour": who }, svg);
      }
      const off = (board.off || {})[who] || 0;
      text(780, who === "light" ? 420 : 50, `${who} ${off}`, { fill: "#ddd", "font-size": 12, class: "off",
        "data-colour": who, "data-count": off }, svg);
    }
  }
  if (snap && snap.best_moves && !editing) drawPlay(svg, snap.best_moves);
  if (snap && !editing) drawDice(svg, snap.dice || []);
  if (snap && snap.cube) {
    const y = snap.cube.owner === "light" ? 400 : snap.cube.owner === "dark" ? 60 : 230;
    el("rect", { x: 762, y: y - 18, width: 36, height: 36, rx: 4, fill: "#eee" }, svg);
    text(780, y + 6, String(snap.cube.value === 1 ? 64 : snap.cube.value), { fill: "#111", "font-weight": "bold", id: "cube-face" }, svg);
  }
}

let clockAt = 0;
// the running player's time counts down between states (the station sends one per event, not per second)
function drawClock() {
  const c = state && state.clock;
  if (!c) { $("clock").textContent = "no clock"; return; }
  const gone = c.running && !c.paused ? (performance.now() - clockAt) / 1000 : 0;
  const left = (who) => Math.max(0, c[who] - (c.running === who ? gone : 0));
  $("clock").textContent = `light ${fmtClock(left("light"))}, dark ${fmtClock(left("dark"))} · delay ${c.delay} s` +
    ` · reserve light ${fmtClock(c.reserve.light)}, dark ${fmtClock(c.reserve.dark)}` +
    `${c.running ? " · running: " + c.running : ""}${c.paused ? " · PAUSED" : ""}`;
}
setInterval(drawClock, 1000);

// gnubg's best play as arrows, from each checker's point to where it goes (learner and home modes)
function drawPlay(svg, moves) {
  const defs = el("defs", {}, svg);
  const marker = el("marker", { id: "head", markerWidth: 8, markerHeight: 8, refX: 6, refY: 4, orient: "auto" }, defs);
  el("path", { d: "M0,0 L8,4 L0,8 z", fill: "#4cc9f0" }, marker);
  const spot = (where) => {
    if (where === "bar") return [X0 + 6 * W + BAR / 2, 230];
    if (where === "off") return [780, 230];
    const { col, top } = slotPlace(where);
    return [columnX(col) + W / 2, top ? TOP + DEPTH * 0.75 : BOTTOM - DEPTH * 0.75];
  };
  for (const [from, to] of moves) {
    const [x1, y1] = spot(from), [x2, y2] = spot(to);
    el("line", { x1, y1, x2, y2, stroke: "#4cc9f0", "stroke-width": 4, "marker-end": "url(#head)",
      class: "best-move", "data-from": from, "data-to": to, opacity: 0.85 }, svg);
  }
}

// each die where the camera saw it (the half it lies on), red when it must be re-thrown (B15)
function drawDice(svg, dice) {
  dice.forEach((d, k) => {
    const col = d.slot === null || d.slot === undefined ? 8 + k : slotPlace(d.slot).col;
    const x = columnX(Math.min(col, 10)) + W / 2 - 16 + (k % 2) * 38, y = 212 + (k > 1 ? 40 : 0);
    const bad = d.status !== "flat" && d.status !== "accepted";
    const g = el("g", { class: "die", "data-value": d.value ?? "", "data-status": d.status }, svg);
    el("rect", { x, y, width: 32, height: 32, rx: 6, fill: "#fafafa", stroke: bad ? "#f33" : "#222",
      "stroke-width": bad ? 4 : 1 }, g);
    text(x + 16, y + 23, String(d.value ?? "?"), { fill: "#111", "font-size": 20, "font-weight": "bold" }, g);
  });
}

function fmtClock(s) {
  const m = Math.floor(s / 60), sec = Math.floor(s % 60);
  return `${m}:${String(sec).padStart(2, "0")}`;
}

function render(snap) {
  state = snap;
  drawBoard(snap);
  $("on-roll").textContent = snap.on_roll || "–";
  $("phase").textContent = snap.phase || "–";
  $("game").textContent = snap.game_number ?? "–";
  $("dice").textContent = (snap.dice || []).map((d) => `${d.value ?? "?"} (${d.status})`).join(", ") || "none";
  $("pips").textContent = snap.pips ? `light ${snap.pips.light}, dark ${snap.pips.dark}` : "–";
  $("cube").textContent = snap.cube ? `${snap.cube.value}${snap.cube.owner ? " owned by " + snap.cube.owner : ", centred"}` : "–";
  const sc = snap.score || {};
  $("score").textContent = sc.light === undefined ? "–" :
    `light ${sc.light} – dark ${sc.dark}${sc.match_length ? ` (to ${sc.match_length})` : " (money)"}`;
  $("crawford").textContent = sc.crawford ? "Crawford game" : "";
  clockAt = performance.now();
  drawClock();
  $("leds").textContent = snap.leds ? `${snap.leds.why}: ${snap.leds.zones.length} zones lit` : "none sent";
  $("position-id").textContent = snap.position_id || "–";
  $("match-id").textContent = snap.match_id || "–";
  $("seq").textContent = snap.seq;
  const dev = snap.devices || {};
  $("devices").innerHTML = ["camera", "leds"].map((d) =>
    `<span class="${dev[d] ? "up" : "down"}" data-device="${d}">${d} ${dev[d] ? "online" : "offline"}</span>`).join(" ");
  $("mode").textContent = snap.mode ? `mode: ${snap.mode}` : "";
  // home mode: a hint on request (the clock button's long press); learner mode has one after every roll
  $("ask-hint").hidden = snap.mode !== "home";
  $("hint-request").disabled = snap.phase !== "moving";
  const hints = snap.mode && snap.mode !== "tournament" && (snap.legal_plays || snap.best_play);
  $("hints").hidden = !hints;
  $("best-play").textContent = snap.best_play || "–";
  $("legal-plays").textContent = (snap.legal_plays || []).join(" · ") || "–";
  const list = $("rulings");
  list.replaceChildren(...(snap.rulings || []).slice().reverse().map((r) => {
    const li = document.createElement("li");
    li.dataset.rule = r.rule;
    li.innerHTML = `<span class="rule"></span><span class="why"></span>`;
    li.firstChild.textContent = `[${r.rule}]`;
    li.lastChild.textContent = r.text;
    return li;
  }));
  $("prompts").replaceChildren(...(snap.prompts || []).slice(-3).reverse().map((p) => {
    const li = document.createElement("li");
    li.textContent = p;
    return li;
  }));
  document.body.dataset.seq = snap.seq;
  $("frame").src = `/api/frame.jpg?seq=${snap.seq}`;
  // when each state was drawn (wall clock ms): the bench's event-to-page latency (python -m bench web)
  window.tavlaDrawn = window.tavlaDrawn || {};
  window.tavlaDrawn[snap.seq] = Date.now();
  if (snap.seq % 500 === 0) window.tavlaDrawn = {};
}

function setLink(up) {
  $("link").className = up ? "up" : "down";
  $("link").textContent = up ? "live" : "reconnecting…";
  document.body.dataset.live = up ? "1" : "0";
}

function alive() {
  clearTimeout(watchdog);
  watchdog = setTimeout(() => { setLink(false); connect(); }, silentMs);
}

function connect() {
  if (source) source.close();
  source = new EventSource("/api/events");
  alive();
  source.onopen = () => { setLink(true); alive(); };
  source.onmessage = (m) => { setLink(true); alive(); render(JSON.parse(m.data)); };
  source.addEventListener("ping", (m) => {
    const every = Number(JSON.parse(m.data).every);
    if (every > 0) silentMs = every * 3000 + 1000;
    setLink(true);
    alive();
  });
  source.onerror = () => {
    setLink(false);
    // the browser retries by itself while the stream is CONNECTING; a CLOSED one is opened anew
    if (source.readyState === EventSource.CLOSED && !retryTimer) {
      retryTimer = setTimeout(() => { retryTimer = null; connect(); }, 1000);
    }
  };
}

function editPoint(slot) {
  if (!editing) return;
  const brush = $("brush").value;
  const [colour, count] = editing.slots[slot];
  editing.slots[slot] = !brush ? [null, 0] : colour === brush ? [brush, Math.min(15, count + 1)] : [brush, 1];
  drawBoard(state);
}

function answer(msg, good) {
  $("answer").textContent = msg;
  $("answer").className = good ? "good" : "bad";
}

async function act(action) {
  const body = { pin: $("pin").value, action };
  if (action === "score") body.score = { light: Number($("score-light").value), dark: Number($("score-dark").value) };
  if (action === "resign") { body.player = $("resign-player").value; body.value = Number($("resign-value").value); }
  if (action === "position") {
    if (!editing) return;
    Object.assign(body, { slots: editing.slots, bar: editing.bar || {}, off: editing.off || {} });
  }
  try {
    const r = await fetch("/api/action", { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body) });
    const out = await r.json();
    if (r.ok) {
      answer(`${action}: sent to the station`, true);
      if (action === "position") stopEditing();
    } else answer(`${action} refused: ${out.error}`, false);
  } catch (e) {
    answer(`${action}: the station does not answer (${e})`, false);
  }
}

async function askHint() {
  try {
    const r = await fetch("/api/hint", { method: "POST" });
    const out = await r.json();
    answer(r.ok ? "hint: asked the station" : `hint refused: ${out.error}`, r.ok);
  } catch (e) {
    answer(`hint: the station does not answer (${e})`, false);
  }
}

function stopEditing() {
  editing = null;
  $("edit-tools").hidden = true;
  document.body.classList.remove("editing");
  if (state) drawBoard(state);
}

document.addEventListener("DOMContentLoaded", () => {
  for (const b of document.querySelectorAll("button[data-action]")) {
    b.addEventListener("click", () => act(b.dataset.action));
  }
  $("edit").addEventListener("click", () => {
    const b = state && state.board;
    editing = { slots: b ? b.slots.map((s) => [...s]) : Array.from({ length: 24 }, () => [null, 0]),
      bar: b ? { ...b.bar } : {}, off: b ? { ...b.off } : {}, movable_slots: [], confidence: [] };
    $("edit-tools").hidden = false;
    document.body.classList.add("editing");
    drawBoard(state);
  });
  $("edit-cancel").addEventListener("click", stopEditing);
  $("hint-request").addEventListener("click", askHint);
  $("frame").addEventListener("load", () => { $("camera").hidden = false; });
  $("frame").addEventListener("error", () => { $("camera").hidden = true; });
  drawBoard(null);
  connect();
});
