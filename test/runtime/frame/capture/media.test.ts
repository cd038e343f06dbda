// Issue 33 §1: a video's frame of that time and a canvas's pixels are in the capture (foreignObject replaces each
// by an image of its pixels; HTML-in-Canvas paints them). The video's frame is compared with the same file decoded
// here at the same time.
import { expect } from '@open-wc/testing';
import type { CaptureRasteriser } from '../../../../src/runtime/capture-codes.js';
import { CaptureFrame, htmlInCanvasHere, near, pixelsOf } from './capture-frame.js';

const VIDEO = '/test/fixtures/media/frames.webm';
const composition = (canvas = true) => `<!doctype html><html><head><style>
  body { margin: 0; } #stage { position: relative; width: 320px; height: 180px; background: #fff; }
  #clip { position: absolute; left: 0; top: 0; width: 160px; height: 90px; object-fit: fill; }
  #paint { position: absolute; left: 200px; top: 100px; width: 40px; height: 40px; }
</style></head><body>
  <div id="stage" data-composition-id="main" data-width="320" data-height="180" data-duration="2">
    <video id="clip" crossorigin muted src="${VIDEO}"></video>${canvas ? '<canvas id="paint" width="40" height="40"></canvas>' : ''}
  </div>
  <script>
    const context = document.getElementById('paint')?.getContext('2d');
    if (context) {
      context.fillStyle = 'rgb(255, 0, 0)';
      context.fillRect(0, 0, 40, 40);
    }
  </script>
</body></html>`;

/** The file's frame at `time`, decoded in this page: its pixel at the centre. */
async function referencePixel(time: number): Promise<number[]> {
  const video = document.createElement('video');
  video.muted = true;
  video.src = VIDEO;
  await new Promise((resolve) => video.addEventListener('loadeddata', resolve, { once: true }));
  video.currentTime = time;
  await new Promise((resolve) => video.addEventListener('seeked', resolve, { once: true }));
  const canvas = document.createElement('canvas');
  canvas.width = video.videoWidth;
  canvas.height = video.videoHeight;
  const context = canvas.getContext('2d')!;
  context.drawImage(video, 0, 0);
  return [...context.getImageData(canvas.width / 2, canvas.height / 2, 1, 1).data];
}

const here: CaptureRasteriser[] = ['foreign-object', ...(htmlInCanvasHere() ? (['html-in-canvas'] as const) : [])];

for (const rasteriser of here)
  describe(`capture of media with ${rasteriser}`, () => {
    // HTML-in-Canvas refuses a composition with a <canvas> (see capture-check.ts): its video alone is tested.
    const canvas = rasteriser === 'foreign-object';
    it(`shows the video's frame of each time${canvas ? " and the canvas's pixels" : ''}`, async () => {
      const frame = await CaptureFrame.open(composition(canvas));
      const started = await frame.start(rasteriser, 640, 360);
      expect([started.rasteriser, started.refusals]).to.deep.equal([rasteriser, []]);
      const seen: number[][] = [];
      for (const time of [0.5, 1.5]) {
        const answer = await frame.capture(time);
        if (answer.type !== 'captured') throw new Error(answer.message);
        const at = await pixelsOf(answer.pixels, 640);
        const expected = await referencePixel(time);
        seen.push(at(160, 90));
        expect(at(160, 90), `video at ${time}: ${expected}`).to.satisfy((pixel: number[]) => near(pixel, expected, 12));
        if (canvas) expect(at(440, 240), `canvas at ${time}`).to.satisfy((pixel: number[]) => near(pixel, [255, 0, 0]));
      }
      // The two times show two frames: the capture did not keep the first.
      expect(near(seen[0]!, seen[1]!, 12), `${seen[0]} vs ${seen[1]}`).to.equal(false);
    });
  });

describe('HTML-in-Canvas and a <canvas> inside the composition', () => {
  it('is refused as "capture_rasteriser_unavailable" naming the canvas; auto takes foreignObject', async function () {
    if (!htmlInCanvasHere()) return this.skip();
    const frame = await CaptureFrame.open(composition());
    const refused = await frame.start('html-in-canvas');
    expect([refused.rasteriser, refused.refusals.map(({ code, where }) => [code, where])]).to.deep.equal([
      null,
      [['capture_rasteriser_unavailable', 'div#stage > canvas#paint']],
    ]);
    expect((await frame.start('auto')).rasteriser).to.equal('foreign-object');
  });
});
