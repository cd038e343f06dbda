// The in-page half of the click-to-frame figure (browser code): the demo composition in `<fx-composition>`, an
// `<fx-render-button>` rendering it on the bench's service with an API key, and the time from the button's click
// to each stage its `renderprogress` events report, the first frame and `rendered`.

/** The instant a stage was first reported, relative to the click (ms). */
function stageClock(start) {
  const first = {};
  return {
    first,
    mark(name) {
      first[name] ??= performance.now() - start;
    },
  };
}

export async function measureClickToFrame({
  sdkUrl,
  runtimeUrl,
  compositionUrl,
  serviceUrl,
  apiKey,
  pollInterval,
  samples,
}) {
  const { FxComposition } = await import(sdkUrl);
  FxComposition.runtimeUrl = runtimeUrl;
  const composition = document.createElement('fx-composition');
  composition.id = 'preview';
  composition.muted = true;
  composition.setAttribute('src', compositionUrl);
  const button = document.createElement('fx-render-button');
  button.setAttribute('for', 'preview');
  button.setAttribute('service', serviceUrl);
  button.setAttribute('poll-interval', String(pollInterval));
  button.credentials = { authorization: async () => `Bearer ${apiKey}`, refresh: async () => false };
  document.body.append(composition, button);
  if (!composition.ready)
    await new Promise((resolve) => composition.addEventListener('ready', resolve, { once: true }));
  await button.updateComplete;

  const runs = [];
  for (let run = 0; run < samples; run++) {
    const clickEpoch = performance.timeOrigin + performance.now();
    const start = performance.now();
    const clock = stageClock(start);
    const onProgress = ({ detail }) => {
      clock.mark(detail.stage);
      if (detail.stage === 'rendering' && detail.framesDone > 0) clock.mark('first frame');
    };
    button.addEventListener('renderprogress', onProgress);
    const ended = new Promise((resolve) => {
      button.addEventListener('rendered', (event) => resolve({ event }), { once: true });
      button.addEventListener('error', (event) => resolve({ error: event.detail }), { once: true });
    });
    button.shadowRoot.querySelector('[part~="button"]').click();
    const outcome = await ended;
    const renderedMs = performance.now() - start;
    button.removeEventListener('renderprogress', onProgress);
    if (outcome.error) throw new Error(`the render failed: ${outcome.error.code}: ${outcome.error.message}`);
    const { render } = outcome.event.detail;
    runs.push({ clickEpoch, renderedMs, stages: clock.first, output: render.output, renderId: render.render_id });
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return {
    runs,
    details: {
      width: composition.metadata?.width,
      height: composition.metadata?.height,
      duration: composition.duration,
    },
  };
}
