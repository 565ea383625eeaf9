"""The director's page (Starlette): every board, the team matches, the round's CSV, the commands.

``GET /`` the page (it polls ``/api/club`` each second), ``GET /api/club`` the club as JSON,
``GET /round.csv`` the current round's results, ``POST /api/command`` ``{"command": "pause" |
"resume" | "round", ...}`` to every station.
"""

from __future__ import annotations

from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from controller.club.url import ClubError
from controller.director.club import ClubView

_PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>Tavla club</title>
<style>
body{font-family:sans-serif;margin:1em;background:#f4f1ea}
table{border-collapse:collapse;margin-bottom:1em}td,th{border:1px solid #aaa;padding:.3em .6em}
.off{color:#a00}.on{color:#070}.ruling{color:#806;font-size:.9em}
</style></head><body>
<h1>Club <span id="club"></span></h1>
<p><button onclick="cmd({command:'pause'})">pause all clocks</button>
<button onclick="cmd({command:'resume'})">resume</button>
<a href="/round.csv">round results (CSV)</a></p>
<table><thead><tr><th>board</th><th>light</th><th>dark</th><th>score</th><th>on roll</th>
<th>clock (light / dark)</th><th>station</th><th>rulings waiting</th></tr></thead>
<tbody id="boards"></tbody></table>
<div id="teams"></div>
<h2>Start a round</h2>
<p>One line a board: <code>BOARD LIGHT DARK POINTS</code></p>
<p>round <input id="round" size="3" value="1"></p>
<textarea id="pairings" rows="6" cols="50"></textarea><br>
<button onclick="startRound()">start the round</button> <span id="said"></span>
<script>
const ESC={'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;'};
function esc(s){return String(s==null?'':s).replace(/[&<>"]/g,c=>ESC[c])}
function who(b){return b.on_roll===0?esc(b.light):b.on_roll===1?esc(b.dark):''}
function clock(c){return c?c.light.toFixed(0)+' / '+c.dark.toFixed(0)+(c.paused?' (paused)':''):''}
async function refresh(){
  const club=await (await fetch('/api/club')).json();
  document.getElementById('club').textContent=club.club;
  document.getElementById('boards').innerHTML=club.boards.map(b=>{
    const s=b.score||{};
    return '<tr><td>'+esc(b.board)+'</td><td>'+esc(b.light)+'</td><td>'+esc(b.dark)+'</td><td>'
      +esc(s.light)+' - '+esc(s.dark)+(s.match_length?' of '+s.match_length:'')
      +(b.winner?' ('+esc(b[b.winner])+' won)':'')+'</td><td>'+who(b)+'</td><td>'+clock(b.clock)
      +(b.paused?' paused by the director':'')+'</td><td class="'+(b.online?'on':'off')+'">'
      +(b.online?'online':'offline')+(b.broken?' '+esc(b.broken):'')+'</td><td class="ruling">'
      +b.rulings.map(r=>'['+esc(r.rule)+'] '+esc(r.text)).join('<br>')+'</td></tr>'}).join('');
  document.getElementById('teams').innerHTML=club.teams.map(t=>'<h2>'+esc(t.home)+' v '+esc(t.away)
    +': '+t.home_wins+' - '+t.away_wins+(t.winner?' ('+esc(t.winner)+' win)':'')+'</h2><p>'
    +t.by_board.map(x=>'board '+esc(x[0])+': '+esc(x[1]||'playing')).join(', ')+'</p>').join('');
}
async function cmd(body){
  const r=await fetch('/api/command',{method:'POST',headers:{'content-type':'application/json'},
    body:JSON.stringify(body)});
  document.getElementById('said').textContent=(await r.json()).said;
}
function startRound(){
  const pairings=document.getElementById('pairings').value.trim().split('\\n').filter(l=>l.trim())
    .map(l=>{const [board,light,dark,len]=l.trim().split(/\\s+/);
      return {board,light,dark,match_length:parseInt(len||'0')}});
  cmd({command:'round',round:parseInt(document.getElementById('round').value),pairings});
}
refresh();setInterval(refresh,1000);
</script></body></html>
"""


def app(view: ClubView, send: Any) -> Starlette:
    """The page for ``view``; ``send(name, **fields)`` sends a director command
    (controller.director.client.DirectorClient.send)."""

    async def page(_request: Request) -> Response:
        return HTMLResponse(_PAGE)

    async def club(_request: Request) -> Response:
        return JSONResponse(view.to_json())

    async def round_csv(_request: Request) -> Response:
        return PlainTextResponse(
            view.round_csv(), media_type="text/csv",
            headers={"content-disposition": f'attachment; filename="{view.club}-round.csv"'},
        )

    async def command(request: Request) -> Response:
        try:
            body = await request.json()
        except ValueError:
            return JSONResponse({"said": "give a JSON object"}, status_code=400)
        if not isinstance(body, dict) or not isinstance(body.get("command"), str):
            return JSONResponse({"said": "give {\"command\": \"pause\" | \"resume\" | \"round\"}"},
                                status_code=400)
        name = body.pop("command")
        try:
            cmd = send(name, **body)
        except ClubError as exc:
            return JSONResponse({"said": str(exc)}, status_code=400)
        return JSONResponse({"said": f"sent: {name}", "command": cmd})

    return Starlette(routes=[
        Route("/", page),
        Route("/api/club", club),
        Route("/round.csv", round_csv),
        Route("/api/command", command, methods=["POST"]),
    ])
