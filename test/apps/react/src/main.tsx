import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';
// Registers the element and types it in JSX: its properties and `on<event>` listeners.
import 'fx-sdk/react';
import type { Issue } from 'fx-sdk';

// The natural React code: an inline `variables` object, and the issues kept in state.
function App() {
  const [headline, setHeadline] = useState('Hello from React');
  const [issues, setIssues] = useState<readonly Issue[]>([]);
  return (
    <>
      <fx-composition
        src="/launch/index.html"
        controls
        variables={{ headline }}
        style={{ display: 'block', width: 640, height: 360 }}
        onvariableschange={(event) => setIssues(event.detail.issues)}
        onerror={(event) => console.error('fx error', event.detail.code, event.detail.message)}
      />
      <button id="change" type="button" onClick={() => setHeadline('Changed live')}>
        Change headline
      </button>
      <p>{issues.length} issues</p>
      {/* The panel edits a composition React leaves alone (a controlled `variables` would set its own values back). */}
      <fx-composition id="panelled" src="/launch/index.html" style={{ display: 'block', width: 320, height: 180 }} />
      <fx-variables-panel
        for="panelled"
        ondeclarationschange={(event) => console.info('declarations', event.detail.declarations.length)}
      />
      <fx-render-button
        for="panelled"
        service="https://render.example.com"
        quality="draft"
        onrendered={(event) => console.info('rendered', event.detail.renderId)}
        onerror={(event) => console.info('render error', event.detail.code)}
      />
    </>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
