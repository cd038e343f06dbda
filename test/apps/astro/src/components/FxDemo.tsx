import { useState } from 'react';
import type { Issue } from 'fx-sdk';
// The wrappers, not the bare tags: React 19's hydration neither sets properties nor adds `on*` listeners on a custom
// element it finds in server-rendered markup.
import { FxComposition, FxVariablesPanel } from 'fx-sdk/react';

/** The island: the input bound to the composition's `variables`, and what its listeners heard. */
export default function FxDemo() {
  const [headline, setHeadline] = useState('Hello from an Astro island');
  const [ready, setReady] = useState(false);
  const [issues, setIssues] = useState<readonly Issue[]>([]);
  const [error, setError] = useState('');
  return (
    <>
      <label>
        Bound headline <input id="headline" value={headline} onChange={(event) => setHeadline(event.target.value)} />
      </label>
      <FxComposition
        src="/launch/index.html"
        controls
        variables={{ headline }}
        style={{ display: 'block', width: 640, height: 360 }}
        onready={() => setReady(true)}
        onvariableschange={(event) => setIssues(event.detail.issues)}
        onerror={(event) => setError(event.detail.code)}
      />
      <button id="change" type="button" onClick={() => setHeadline('Changed live')}>
        Change headline
      </button>
      <p>
        Ready: <output id="ready-seen">{ready ? 'yes' : 'no'}</output>, issues:{' '}
        <output id="issues-seen">{issues.length}</output>, error: <output id="error-seen">{error}</output>
      </p>
      {/* The panel edits a composition React leaves alone (a controlled `variables` would set its own values back). */}
      <FxComposition id="panelled" src="/launch/index.html" style={{ display: 'block', width: 320, height: 180 }} />
      <FxVariablesPanel for="panelled" />
    </>
  );
}
