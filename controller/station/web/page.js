// The station's page: draws the state JSON (GET /api/state, live from /api/events) and sends the
// referee's actions (POST /api/action). Plain ES module, no build step.
import { clockAt, drawBoard as drawSvg } from "./board.js";
import { connectLive } from "./live.js";

const $ = (id) => document.getElementById(id);
let state = null, editing = null;

function drawBoard(snap) {
  drawSvg($("board"), snap, { editing, onPoint: editPoint });
}

let clockSeen = 0;
// the clock runs between states (the station sends one per event, not per second): the delay left
// first, then the running player's time (controller/game/clock.py)
function drawClock() {
  const c = state && state.clock;
  if (!c) { $("clock").textContent = "no clock"; return; }
  const now = clockAt(c, (performance.now() - clockSeen) / 1000);
  $("clock").textContent = now.text;
  $("clock").dataset.light = now.light;
  $("clock").dataset.dark = now.dark;
  $("clock").dataset.delayLeft = now.delayLeft;
}
setInterval(drawClock, 250);  // a second's change shows within a quarter of it

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
  clockSeen = performance.now();
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
  connectLive("/api/events", { onState: render, onLink: setLink });
});
