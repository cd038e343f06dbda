// Issue 33 §1: the frame captures itself. A composition with a box moved by a CSS animation, a square moved and
// recoloured by a Web Animation, a fixture image and a web font, captured at several times over a real port: each
// picture shows the state of its time, where and in the colours the animations put it.
import { expect } from '@open-wc/testing';
import type { CaptureRasteriser } from '../../../../src/runtime/capture-codes.js';
import { CaptureFrame, htmlInCanvasHere, near, pixelsOf, resourcesOf } from './capture-frame.js';

export const COMPOSITION = `<!doctype html><html><head><style>
  @font-face { font-family: Title; src: url('project/fonts/title.ttf'); }
  body { margin: 0; }
  #stage { position: relative; width: 320px; height: 180px; background: rgb(255, 255, 255); overflow: hidden; }
  #box { position: absolute; left: 0; top: 20px; width: 40px; height: 40px; background: rgb(255, 0, 0);
    animation: slide 1s linear both; }
  @keyframes slide { from { transform: translateX(0); } to { transform: translateX(200px); } }
  #square { position: absolute; left: 100px; top: 120px; width: 40px; height: 40px; background: rgb(0, 128, 0); }
  #pic { position: absolute; left: 270px; top: 130px; width: 40px; height: 40px; }
  #title { position: absolute; left: 8px; top: 70px; font: 20px/1 Title; color: rgb(0, 0, 0); white-space: nowrap; }
</style></head><body>
  <div id="stage" data-composition-id="main" data-width="320" data-height="180" data-duration="1">
    <div id="box"></div><div id="square"></div><img id="pic" src="basic/pic.svg"><span id="title">WWWW</span>
  </div>
  <script>
    document.getElementById('square').animate(
      [{ transform: 'translateY(0)', backgroundColor: 'rgb(0, 128, 0)' },
       { transform: 'translateY(-100px)', backgroundColor: 'rgb(0, 0, 255)' }],
      { duration: 1000, fill: 'both' });
  </script>
</body></html>`;

const RED = [255, 0, 0];
const WHITE = [255, 255, 255];
const BLUE = [0, 0, 255];

/** The rasterisers this browser runs: foreignObject everywhere, HTML-in-Canvas where the flag is on. */
const rasterisers: CaptureRasteriser[] = [
  'foreign-object',
  ...(htmlInCanvasHere() ? (['html-in-canvas'] as const) : []),
];

for (const rasteriser of rasterisers)
  describe(`capture with ${rasteriser}`, () => {
    it('shows each time as the animations put it: the box, the square and its colour, the image', async () => {
      const frame = await CaptureFrame.open(COMPOSITION);
      const started = await frame.start(rasteriser, 640, 360, await resourcesOf('basic/pic.svg'));
      expect(started.refusals).to.deep.equal([]);
      expect(started.rasteriser).to.equal(rasteriser);
      // Posted together: the frame runs them one at a time, in order, each at its own time.
      const times = [0, 0.3, 0.5, 0.9];
      const answers = await Promise.all(times.map((time) => frame.capture(time)));
      for (const [index, answer] of answers.entries()) {
        if (answer.type !== 'captured') throw new Error(`${answer.code}: ${answer.message}`);
        const time = times[index]!;
        expect(answer.time).to.be.closeTo(time, 1e-9);
        expect(answer.pixels.size, '640 × 360 RGBA').to.equal(640 * 360 * 4);
        const at = await pixelsOf(answer.pixels, 640);
        // 2 device pixels a CSS pixel. The box: x from 0 to 200 CSS px over the second, 40 px wide, y 20–60.
        const left = 2 * 200 * time;
        expect(at(left + 40, 80), `box inside at ${time}`).to.satisfy((pixel: number[]) => near(pixel, RED));
        expect(at(left + 3, 80), `box's left edge at ${time}`).to.satisfy((pixel: number[]) => near(pixel, RED));
        expect(at(left + 77, 80), `box's right edge at ${time}`).to.satisfy((pixel: number[]) => near(pixel, RED));
        if (time > 0)
          expect(at(left - 3, 80), `left of the box at ${time}`).to.satisfy((p: number[]) => near(p, WHITE));
        expect(at(left + 83, 80), `right of the box at ${time}`).to.satisfy((p: number[]) => near(p, WHITE));
        // The square: up 100 CSS px over the second, green → blue.
        const top = 2 * (120 - 100 * time);
        const colour = [0, Math.round(128 * (1 - time)), Math.round(255 * time)];
        expect(at(240, top + 40), `square at ${time}`).to.satisfy((pixel: number[]) => near(pixel, colour, 8));
        expect(at(240, top - 3), `above the square at ${time}`).to.satisfy((p: number[]) => near(p, WHITE));
        expect(at(240, top + 83), `below the square at ${time}`).to.satisfy((p: number[]) => near(p, WHITE));
        // The image (a blue square of 40 CSS px at 270, 130).
        expect(at(580, 300), `image at ${time}`).to.satisfy((pixel: number[]) => near(pixel, BLUE));
      }
    });

    it('draws the web font, not a fallback: the ink is as wide as the font sets it', async () => {
      const font = new FontFace(
        'CaptureTitle',
        await (await resourcesOf('project/fonts/title.ttf'))[0]!.blob.arrayBuffer(),
      );
      await font.load();
      document.fonts.add(font);
      const context = document.createElement('canvas').getContext('2d')!;
      context.font = '40px CaptureTitle';
      const expected = context.measureText('WWWW');
      context.font = '40px serif';
      const fallback = context.measureText('WWWW');
      const inkOf = (metrics: TextMetrics) => metrics.actualBoundingBoxLeft + metrics.actualBoundingBoxRight;
      expect(Math.abs(inkOf(expected) - inkOf(fallback)), 'the font differs from the fallback').to.be.above(15);

      const frame = await CaptureFrame.open(COMPOSITION);
      await frame.start(rasteriser, 640, 360, await resourcesOf('basic/pic.svg'));
      const answer = await frame.capture(0);
      if (answer.type !== 'captured') throw new Error(answer.message);
      const at = await pixelsOf(answer.pixels, 640);
      // The text's row band (y 70–90 CSS px → 140–180), below the box: the dark pixels' extent.
      let first = Infinity;
      let last = -Infinity;
      for (let y = 140; y < 180; y++)
        for (let x = 0; x < 640; x++) {
          const [r, g, b] = at(x, y);
          if (r! < 100 && g! < 100 && b! < 100) {
            first = Math.min(first, x);
            last = Math.max(last, x);
          }
        }
      const ink = last - first;
      // Within 2 % of the font's own ink (WebKit's SVG-image text lands 9 px short of its page's on 480), far from
      // the fallback's.
      expect(ink, `ink ${ink} px, the font's ${inkOf(expected)}, the fallback's ${inkOf(fallback)}`).to.be.closeTo(
        inkOf(expected),
        Math.max(3, inkOf(expected) * 0.02),
      );
    });

    it('draws a root of height 0 whose content is placed against the viewport (absolute, fixed) on the page background, where the page shows it', async () => {
      // As many registry blocks are written: the root has no size of its own, its content is placed by the
      // viewport (HTML-in-Canvas drew such a root as nothing).
      const frame = await CaptureFrame.open(`<!doctype html><html><head><style>
        body { margin: 0; width: 320px; height: 180px;
          background: url('basic/pic.svg') no-repeat 150px 60px / 20px 20px, rgb(255, 255, 255); }
        #lower { position: absolute; left: 20px; bottom: 20px; width: 60px; height: 30px; background: rgb(255, 0, 0); }
        #corner { position: fixed; right: 10px; top: 10px; width: 30px; height: 30px; background: rgb(0, 0, 255); }
      </style></head><body>
        <div id="root" data-composition-id="main" data-width="320" data-height="180" data-duration="1">
          <div><div id="lower"></div><div id="corner"></div></div>
        </div>
      </body></html>`);
      const started = await frame.start(rasteriser, 320, 180, await resourcesOf('basic/pic.svg'));
      expect(started.rasteriser).to.equal(rasteriser);
      const answer = await frame.capture(0.5);
      if (answer.type !== 'captured') throw new Error(answer.message);
      const at = await pixelsOf(answer.pixels, 320);
      // The lower box: x 20–80, y 130–160; the corner box: x 280–310, y 10–40.
      expect(at(50, 145), 'the box placed from the bottom').to.satisfy((pixel: number[]) => near(pixel, RED));
      expect(at(295, 25), 'the box fixed to the corner').to.satisfy((pixel: number[]) => near(pixel, BLUE));
      expect(at(50, 110), 'above the lower box').to.satisfy((pixel: number[]) => near(pixel, WHITE));
      expect(at(160, 70), "the page background's image").to.satisfy((pixel: number[]) => near(pixel, BLUE));
    });

    it('letterboxes a composition into an output of another shape, black bars', async () => {
      const frame = await CaptureFrame.open(COMPOSITION);
      await frame.start(rasteriser, 640, 480, await resourcesOf('basic/pic.svg'));
      const answer = await frame.capture(0);
      if (answer.type !== 'captured') throw new Error(answer.message);
      const at = await pixelsOf(answer.pixels, 640);
      expect(at(320, 30)).to.satisfy((pixel: number[]) => near(pixel, [0, 0, 0]));
      expect(at(320, 450)).to.satisfy((pixel: number[]) => near(pixel, [0, 0, 0]));
      // The box at 0 s: CSS (0–40, 20–60) → output (0–80, 60 + 40–120).
      expect(at(40, 60 + 80)).to.satisfy((pixel: number[]) => near(pixel, RED));
      expect(at(320, 64)).to.satisfy((pixel: number[]) => near(pixel, WHITE));
    });
  });
