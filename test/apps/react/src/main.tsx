import { StrictMode, useEffect, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';
import 'fx-sdk';
import type { FxComposition, Issue } from 'fx-sdk';

// The natural React code: an inline `variables` object, and the issues kept in state.
function App() {
  const [headline, setHeadline] = useState('Hello from React');
  const [issues, setIssues] = useState<readonly Issue[]>([]);
  const preview = useRef<FxComposition>(null);
  useEffect(() => {
    const element = preview.current;
    if (!element) return;
    const onChange = (event: Event) => setIssues((event as CustomEvent<{ issues: Issue[] }>).detail.issues);
    element.addEventListener('variableschange', onChange);
    return () => element.removeEventListener('variableschange', onChange);
  }, []);
  return (
    <>
      <fx-composition ref={preview} src="/launch/index.html" controls variables={{ headline }} style={{ display: 'block', width: 640, height: 360 }} />
      <button id="change" type="button" onClick={() => setHeadline('Changed live')}>Change headline</button>
      <p>{issues.length} issues</p>
    </>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
