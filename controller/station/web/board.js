// The board as SVG, drawn from a station's state JSON (controller.station.snapshot): the station's
// page draws its own board with it, the director's page every board of the club. Plain ES module.
const NS = "http://www.w3.org/2000/svg";
const W = 680 / 12, X0 = 20, BAR = 40, TOP = 20, BOTTOM = 440, DEPTH = 180, UNSURE = 0.5;
export const VIEWBOX = "0 0 820 460";

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

// ``editing`` (the referee's own position, while he enters one) is drawn instead of the state's board;
// ``onPoint(slot)`` is called when a point is clicked
export function drawBoard(svg, snap, { editing = null, onPoint = null } = {}) {
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
    if (onPoint) g.addEventListener("click", () => onPoint(slot));
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

// a clock shows 0.2 s left as 0:01, not 0:00: round up as the terminal's clock line does (printer.py)
const up = (s) => Math.floor(Math.max(0, s) + 0.999);

export function fmtClock(s) {
  const whole = up(s), m = Math.floor(whole / 60), sec = whole % 60;
  return `${m}:${String(sec).padStart(2, "0")}`;
}

// The clock ``gone`` seconds after the state's clock (GET /api/state's ``clock``) was taken, as
// controller/game/clock.py runs it: the running player's delay is spent first, and only then his time.
// Returns {light, dark, delayLeft, text}; ``text`` reads like the terminal's clock line.
export function clockAt(c, gone) {
  const runs = c.running && !c.paused && c.flag == null ? Math.max(0, gone) : 0;
  const delayLeft = c.running ? Math.max(0, (c.delay_left ?? c.delay) - runs) : c.delay;
  const over = c.running ? Math.max(0, runs - (c.delay_left ?? c.delay)) : 0;
  const left = (who) => Math.max(0, c[who] - (c.running === who ? over : 0));
  const out = { light: left("light"), dark: left("dark"), delayLeft };
  let how;
  if (c.flag) how = `${c.flag}'s flag fell`;
  else if (c.paused) how = "PAUSED";
  else if (!c.running) how = `stopped; ${c.delay} s delay a move`;
  else if (out[c.running] <= 0) how = `${c.running}'s runs: time is up`;
  else if (delayLeft > 0) how = `${c.running}'s runs: ${up(delayLeft)} s of the ${c.delay} s delay left`;
  else how = `${c.running}'s runs: delay spent, the reserve runs`;
  out.text = `light ${fmtClock(out.light)}, dark ${fmtClock(out.dark)} (${how})`;
  return out;
}
