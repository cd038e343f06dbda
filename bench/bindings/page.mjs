// The in-page half of the bindings benchmark (browser code): builds the composition, then times
// resolveVariables + applyBindings, and the same followed by a forced style recalc and layout.
import { buildComposition, overridesAt, valueAt } from './fixture.mjs';

const nextFrame = () => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));

/** The smallest step `performance.now()` takes here (5 µs when cross-origin isolated, ~100 µs otherwise). */
function timerResolution() {
  let smallest = Infinity;
  for (let k = 0; k < 200; k++) {
    const start = performance.now();
    let now = start;
    while (now === start) now = performance.now();
    smallest = Math.min(smallest, now - start);
  }
  return smallest;
}

function rgb(hexColor) {
  const value = Number.parseInt(hexColor.slice(1), 16);
  return `rgb(${value >> 16}, ${(value >> 8) & 0xff}, ${value & 0xff})`;
}

/**
 * Runs `warmup` unrecorded iterations then `samples` recorded ones; every iteration supplies new values for all
 * 100 variables. Between iterations the page renders a frame, so each update starts from a clean, painted state.
 * Throws when the DOM does not show the last values, so a broken binding can never pass for a fast one.
 */
export async function measureBindings({ runtimeUrl, warmup, samples }) {
  const { Attr, parseVariableDeclarations, resolveVariables, applyBindings } = await import(runtimeUrl);
  const { root, variables, styled, probes } = buildComposition(document, Attr);
  document.body.append(root);

  const parsed = parseVariableDeclarations(root.getAttribute(Attr.compositionVariables));
  if (parsed.issues.length > 0 || parsed.declarations.length !== variables.length) {
    throw new Error(`fixture declarations did not parse cleanly: ${JSON.stringify(parsed.issues)}`);
  }
  const { declarations } = parsed;
  const bindings = {
    text: root.querySelectorAll(`[${Attr.varText}]`).length,
    src: root.querySelectorAll(`[${Attr.varSrc}]`).length,
    style: styled.filter((element) => element.getAttribute('style').includes('var(--')).length,
  };

  // DOM reads have effects (they flush style and layout), so the engine cannot drop them.
  const forceStyleAndLayout = () => {
    void getComputedStyle(probes.color.element).color;
    void root.offsetHeight;
  };

  applyBindings(root, resolveVariables(declarations).values);
  await nextFrame();

  const total = warmup + samples;
  const plan = Array.from({ length: total }, (_, iteration) => overridesAt(variables, iteration));
  const times = { resolve: [], resolveApply: [], resolveApplyStyle: [] };
  for (let iteration = 0; iteration < total; iteration++) {
    const overrides = plan[iteration];
    const start = performance.now();
    const resolved = resolveVariables(declarations, { overrides });
    const afterResolve = performance.now();
    const bindingIssues = applyBindings(root, resolved.values);
    const afterApply = performance.now();
    forceStyleAndLayout();
    const afterStyle = performance.now();

    if (resolved.issues.length > 0 || bindingIssues.length > 0) {
      throw new Error(
        `iteration ${iteration} reported issues: ${JSON.stringify([...resolved.issues, ...bindingIssues])}`,
      );
    }
    if (iteration >= warmup) {
      times.resolve.push(afterResolve - start);
      times.resolveApply.push(afterApply - start);
      times.resolveApplyStyle.push(afterStyle - start);
    }
    await nextFrame();
  }

  checkLastValues({ root, Attr, variables, last: total - 1, probes });
  return {
    times,
    details: {
      variables: variables.length,
      bindings,
      warmup,
      crossOriginIsolated: self.crossOriginIsolated,
      timerResolutionMs: timerResolution(),
    },
  };
}

function checkLastValues({ root, Attr, variables, last, probes }) {
  const expect = (id) =>
    valueAt(
      variables.find((variable) => variable.id === id),
      last,
    );
  const seen = {
    text: root.querySelector(`[${Attr.varText}="s0"]`).textContent,
    src: root.querySelector(`[${Attr.varSrc}="i0"]`).getAttribute('src'),
    color: getComputedStyle(probes.color.element).color,
    width: getComputedStyle(probes.width.element).width,
  };
  const wanted = {
    text: expect('s0'),
    src: expect('i0'),
    color: rgb(expect(probes.color.id)),
    width: `${expect(probes.width.id)}px`,
  };
  for (const key of Object.keys(wanted)) {
    if (seen[key] !== wanted[key])
      throw new Error(
        `after the last update "${key}" shows ${JSON.stringify(seen[key])}, expected ${JSON.stringify(wanted[key])}`,
      );
  }
}
