// The live stream of a page (server-sent events): each message is a JSON state, handed to onState;
// onLink(up) says whether the stream is open. The station's page and the director's use it.
// A stream that goes silent (a half-open link: Wi-Fi dropped, a laptop slept) is opened anew after
// three of the server's ping intervals without a word; the pings (event "ping") say the interval.
export function connectLive(url, { onState, onLink = () => {} }) {
  let source = null, retryTimer = null, watchdog = null, silentMs = 46000;
  function alive() {
    clearTimeout(watchdog);
    watchdog = setTimeout(() => { onLink(false); open(); }, silentMs);
  }
  function open() {
    if (source) source.close();
    source = new EventSource(url);
    alive();
    source.onopen = () => { onLink(true); alive(); };
    source.onmessage = (m) => { onLink(true); alive(); onState(JSON.parse(m.data)); };
    source.addEventListener("ping", (m) => {
      const every = Number(JSON.parse(m.data).every);
      if (every > 0) silentMs = every * 3000 + 1000;
      onLink(true);
      alive();
    });
    source.onerror = () => {
      onLink(false);
      // the browser retries by itself while the stream is CONNECTING; a CLOSED one is opened anew
      if (source.readyState === EventSource.CLOSED && !retryTimer) {
        retryTimer = setTimeout(() => { retryTimer = null; open(); }, 1000);
      }
    };
  }
  open();
  return {
    close: () => { clearTimeout(retryTimer); clearTimeout(watchdog); if (source) source.close(); },
  };
}
