// The live stream of a page (server-sent events): each message is a JSON state, handed to onState;
// onLink(up) says whether the stream is open. The station's page and the director's use it.
export function connectLive(url, { onState, onLink = () => {} }) {
  let source = null, retryTimer = null;
  function open() {
    if (source) source.close();
    source = new EventSource(url);
    source.onopen = () => onLink(true);
    source.onmessage = (m) => { onLink(true); onState(JSON.parse(m.data)); };
    source.onerror = () => {
      onLink(false);
      // the browser retries by itself while the stream is CONNECTING; a CLOSED one is opened anew
      if (source.readyState === EventSource.CLOSED && !retryTimer) {
        retryTimer = setTimeout(() => { retryTimer = null; open(); }, 1000);
      }
    };
  }
  open();
  return { close: () => { clearTimeout(retryTimer); if (source) source.close(); } };
}
