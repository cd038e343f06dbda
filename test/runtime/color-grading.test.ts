import { expect } from '@open-wc/testing';
import { applyBindings, resolvedColorGrading } from '../../src/runtime/bindings.js';
import { colorGradingFilter, colorGradingReference, resolveColorGrading } from '../../src/runtime/color-grading.js';

// Mounted synchronously in the live page: @open-wc's fixture waits for a frame, which a background tab throttles.
const mounted: Element[] = [];
function mount(markup: string): HTMLElement {
  const template = document.createElement('template');
  template.innerHTML = markup.trim();
  const root = template.content.firstElementChild as HTMLElement;
  document.body.append(root);
  mounted.push(root);
  return root;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

describe('colorGradingReference', () => {
  const references: [string, string][] = [
    ['$name', 'name'],
    ['${name}', 'name'],
    ['$_private', '_private'],
    ['$with-dash_2', 'with-dash_2'],
    ['${with space}', 'with space'],
    ['${2fast}', '2fast'],
  ];
  for (const [field, id] of references) {
    it(`reads ${JSON.stringify(field)} as a reference to "${id}"`, () => {
      expect(colorGradingReference(field)).to.equal(id);
    });
  }

  const notReferences: unknown[] = [
    'x $name',
    '$name ',
    ' $name',
    '$$name',
    '$',
    '${}',
    '${name',
    '$name}',
    '${a}b',
    '${a{b}}',
    'name',
    '$na.me',
    '',
    42,
    null,
    undefined,
    ['$name'],
    { ref: '$name' },
  ];
  for (const field of notReferences) {
    it(`reads ${JSON.stringify(field) ?? String(field)} as no reference`, () => {
      expect(colorGradingReference(field)).to.equal(undefined);
    });
  }
});

describe('resolveColorGrading', () => {
  const values = {
    look: 'teal-orange',
    strength: 0.8,
    exposure: 0.5,
    vibrance: -0.25,
    vignette: 0.3,
    feather: 0.6,
    grain: 0.1,
    grainSize: 2,
    blur: 4,
    space: 'rec709',
  };

  it('replaces whole-field references in every group', () => {
    const grading = {
      preset: '$look',
      intensity: '${strength}',
      adjust: { exposure: '$exposure', vibrance: '${vibrance}' },
      details: { vignette: '$vignette', vignetteFeather: '$feather', grain: '${grain}', grainSize: '$grainSize' },
      effects: { blur: '$blur' },
      colorSpace: '$space',
    };
    expect(resolveColorGrading(grading, values)).to.deep.equal({
      preset: 'teal-orange',
      intensity: 0.8,
      adjust: { exposure: 0.5, vibrance: -0.25 },
      details: { vignette: 0.3, vignetteFeather: 0.6, grain: 0.1, grainSize: 2 },
      effects: { blur: 4 },
      colorSpace: 'rec709',
    });
  });

  it('keeps literal fields as they are', () => {
    const grading = { preset: 'warm', intensity: 1, adjust: { exposure: -1, vibrance: null }, effects: { blur: true } };
    expect(resolveColorGrading(grading, values)).to.deep.equal(grading);
  });

  it('leaves a reference to a missing variable as written', () => {
    expect(resolveColorGrading({ adjust: { exposure: '$missing', vibrance: '${alsoMissing}' } }, values)).to.deep.equal(
      {
        adjust: { exposure: '$missing', vibrance: '${alsoMissing}' },
      },
    );
  });

  it('does not substitute partial references', () => {
    const grading = {
      preset: 'x $look',
      colorSpace: '$space ',
      intensity: '$$strength',
      effects: { blur: '${blur}px' },
    };
    expect(resolveColorGrading(grading, values)).to.deep.equal(grading);
  });

  it('resolves inside arrays at any depth', () => {
    const grading = { effects: { stack: ['$blur', 'literal', { amount: '${grain}' }, ['$look']] } };
    expect(resolveColorGrading(grading, values)).to.deep.equal({
      effects: { stack: [4, 'literal', { amount: 0.1 }, ['teal-orange']] },
    });
  });

  it('resolves a reference at the top level', () => {
    expect(resolveColorGrading('$strength', values)).to.equal(0.8);
  });

  it('substitutes once and does not follow a value that looks like a reference', () => {
    expect(resolveColorGrading({ preset: '$a' }, { a: '$b', b: 'deep' })).to.deep.equal({ preset: '$b' });
  });

  it('substitutes falsy values', () => {
    expect(
      resolveColorGrading(
        { intensity: '$zero', preset: '$empty', effects: { on: '$off' } },
        { zero: 0, empty: '', off: false },
      ),
    ).to.deep.equal({
      intensity: 0,
      preset: '',
      effects: { on: false },
    });
  });

  it('does not modify its input', () => {
    const grading = deepFreeze({ adjust: { exposure: '$exposure' }, effects: { stack: ['$blur'] } });
    const before = structuredClone(grading);
    const resolved = resolveColorGrading(grading, values);
    expect(grading).to.deep.equal(before);
    expect(resolved).not.to.equal(grading);
    expect(resolved.adjust).not.to.equal(grading.adjust);
  });

  describe('hostile names', () => {
    afterEach(() => {
      expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
    });

    it('does not resolve inherited names such as $toString or $__proto__', () => {
      const grading = { preset: '$toString', intensity: '${constructor}', colorSpace: '$__proto__' };
      expect(resolveColorGrading(grading, {})).to.deep.equal(grading);
    });

    it('resolves own variables with prototype names', () => {
      const named = JSON.parse('{"__proto__": "p", "toString": 2}');
      expect(resolveColorGrading({ preset: '$__proto__', intensity: '$toString' }, named)).to.deep.equal({
        preset: 'p',
        intensity: 2,
      });
    });

    it('keeps a "__proto__" key of the grading as an own key without polluting', () => {
      const grading = JSON.parse('{"__proto__": {"polluted": "$look"}, "adjust": {"exposure": "$exposure"}}');
      const resolved = resolveColorGrading(grading, values) as Record<string, unknown>;
      expect(Object.getPrototypeOf(resolved)).to.equal(Object.prototype);
      expect(Object.getOwnPropertyDescriptor(resolved, '__proto__')!.value).to.deep.equal({ polluted: 'teal-orange' });
      expect(resolved.polluted).to.equal(undefined);
    });
  });
});

describe('colorGradingFilter', () => {
  const filters: [string, Record<string, unknown>, string][] = [
    ['nothing', {}, ''],
    ['zero adjustments', { adjust: { exposure: 0, vibrance: 0 }, effects: { blur: 0 } }, ''],
    ['exposure in stops', { adjust: { exposure: 1 } }, 'brightness(2.0000)'],
    ['negative exposure', { adjust: { exposure: -1 } }, 'brightness(0.5000)'],
    ['vibrance', { adjust: { vibrance: 0.5 } }, 'saturate(1.5000)'],
    ['vibrance clamped at zero', { adjust: { vibrance: -3 } }, 'saturate(0.0000)'],
    ['blur', { effects: { blur: 2.5 } }, 'blur(2.5px)'],
    ['negative blur', { effects: { blur: -2 } }, ''],
    [
      'all three',
      { adjust: { exposure: 1, vibrance: 0.5 }, effects: { blur: 2 } },
      'brightness(2.0000) saturate(1.5000) blur(2px)',
    ],
    [
      'unresolved references and strings',
      { adjust: { exposure: '$missing', vibrance: '0.5' }, effects: { blur: '2px' } },
      '',
    ],
    ['non-finite numbers', { adjust: { exposure: Infinity, vibrance: NaN } }, ''],
    ['groups that are not objects', { adjust: 1, effects: 'blur' }, ''],
  ];
  for (const [name, grading, filter] of filters) {
    it(`gives ${JSON.stringify(filter)} for ${name}`, () => {
      expect(colorGradingFilter(grading)).to.equal(filter);
    });
  }
});

describe('applyBindings: data-color-grading', () => {
  afterEach(() => {
    for (const root of mounted.splice(0)) root.remove();
  });

  const mountVideo = (grading: string, style = '') =>
    mount(`<div data-composition-id="c"><video data-color-grading='${grading}' style="${style}"></video></div>`);
  const video = (root: HTMLElement) => root.querySelector('video')!;

  it('sets a CSS filter from resolved exposure, vibrance and blur', () => {
    const root = mountVideo(
      '{"preset":"$look","adjust":{"exposure":"$exp","vibrance":"${vib}"},"effects":{"blur":"$blur"}}',
    );
    const issues = applyBindings(root, { look: 'warm', exp: 1, vib: 0.5, blur: 2 });
    expect(issues).to.deep.equal([]);
    expect(video(root).style.filter).to.equal('brightness(2) saturate(1.5) blur(2px)');
    expect(resolvedColorGrading(video(root))).to.deep.equal({
      preset: 'warm',
      adjust: { exposure: 1, vibrance: 0.5 },
      effects: { blur: 2 },
    });
  });

  it('keeps the authored inline filter and updates only its own part', () => {
    const root = mountVideo('{"adjust":{"exposure":"$exp"}}', 'filter: grayscale(1)');
    applyBindings(root, { exp: -1 });
    expect(video(root).style.filter).to.equal('grayscale(1) brightness(0.5)');
    applyBindings(root, { exp: 0 });
    expect(video(root).style.filter).to.equal('grayscale(1)');
  });

  it('leaves an unresolved reference in the resolved grading and sets no filter from it', () => {
    const root = mountVideo('{"adjust":{"exposure":"$missing"}}');
    expect(applyBindings(root, {})).to.deep.equal([]);
    expect(resolvedColorGrading(video(root))).to.deep.equal({ adjust: { exposure: '$missing' } });
    expect(video(root).style.filter).to.equal('');
  });

  it('is idempotent', () => {
    const root = mountVideo('{"adjust":{"exposure":"$exp","vibrance":0.2}}', 'filter: sepia(1)');
    applyBindings(root, { exp: 0.5 });
    const html = root.outerHTML;
    applyBindings(root, { exp: 0.5 });
    expect(root.outerHTML).to.equal(html);
  });

  const malformed: [string, string][] = [
    ['malformed JSON', '{"adjust": {"exposure": "$exp"'],
    ['an empty attribute', ''],
    ['a JSON array', '[{"adjust":{}}]'],
    ['JSON null', 'null'],
    ['a JSON string', '"$exp"'],
  ];
  for (const [name, grading] of malformed) {
    it(`reports color_grading_invalid for ${name}`, () => {
      const root = mountVideo(grading, 'filter: grayscale(1)');
      const issues = applyBindings(root, { exp: 1 });
      expect(issues.map((found) => [found.code, found.path])).to.deep.equal([
        ['color_grading_invalid', ['data-color-grading']],
      ]);
      expect(resolvedColorGrading(video(root))).to.equal(undefined);
      expect(video(root).style.filter).to.equal('grayscale(1)');
    });
  }

  it('drops the previous grading when the attribute turns malformed', () => {
    const root = mountVideo('{"adjust":{"exposure":"$exp"}}', 'filter: grayscale(1)');
    applyBindings(root, { exp: 1 });
    video(root).setAttribute('data-color-grading', '{oops');
    expect(applyBindings(root, { exp: 1 }).map((found) => found.code)).to.deep.equal(['color_grading_invalid']);
    expect(resolvedColorGrading(video(root))).to.equal(undefined);
    expect(video(root).style.filter).to.equal('grayscale(1)');
  });

  it('does not resolve gradings inside a nested sub-composition', () => {
    const root = mount(`<div data-composition-id="outer">
      <div data-composition-id="inner"><video data-color-grading='{"adjust":{"exposure":"$exp"}}'></video></div>
    </div>`);
    applyBindings(root, { exp: 1 });
    expect(resolvedColorGrading(video(root))).to.equal(undefined);
    expect(video(root).style.filter).to.equal('');
    applyBindings(root.querySelector<HTMLElement>('[data-composition-id="inner"]')!, { exp: 2 });
    expect(video(root).style.filter).to.equal('brightness(4)');
  });
});

describe('resolveColorGrading on hostile nesting', () => {
  it('leaves a 10,000-deep grading as written instead of overflowing the stack', () => {
    // Written as text: Firefox's JSON.stringify itself runs out of stack on 10,000 levels.
    const deep = `${'{"nested":'.repeat(10_000)}"$exposure"${'}'.repeat(10_000)}`;
    const grading = JSON.parse(`{"adjust":{"exposure":"$exposure"},"deep":${deep}}`);
    const resolved = resolveColorGrading(grading, { exposure: 0.5 }) as { adjust: { exposure: unknown } };
    expect(resolved.adjust.exposure).to.equal(0.5);
  });
});
