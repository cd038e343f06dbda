// The reference composition of the render benchmark: a typical motion-graphics card at any size. Everything is
// laid out in units of the composition size, so the 1080p and 720p variants show the same picture.

const CARDS = 12;

/** The composition HTML at `width`×`height`, `duration` seconds long. */
export function referenceComposition({ width, height, duration }) {
  const unit = width / 1920; // px per 1080p pixel
  const px = (value) => `${(value * unit).toFixed(2)}px`;
  const cards = Array.from({ length: CARDS }, (_, index) => {
    const column = index % 4;
    const row = Math.floor(index / 4);
    const delay = (index * 0.15).toFixed(2);
    return `<div class="card" style="left:${px(140 + column * 420)};top:${px(300 + row * 230)};animation-delay:${delay}s">
      <div class="dot" style="background:hsl(${index * 30} 80% 60%)"></div><p>Item ${index + 1}</p><span>${(index * 7.3).toFixed(1)}%</span></div>`;
  }).join('\n');
  return `<!doctype html>
<html data-composition-variables='[{"id":"title","type":"string","label":"Title","default":"Quarterly results"},{"id":"accent","type":"color","label":"Accent","default":"#ffb000"}]'>
<head>
<style>
  body { margin: 0; }
  #root { width: ${width}px; height: ${height}px; position: relative; overflow: hidden; font-family: sans-serif;
    background: linear-gradient(135deg, #0b1d3a, #3a0b2e); color: #fff; }
  h1 { position: absolute; left: ${px(140)}; top: ${px(90)}; margin: 0; font-size: ${px(96)}; font-weight: 800;
    animation: rise 1s ease-out both; }
  .bar { position: absolute; left: 0; bottom: 0; height: ${px(16)}; width: 100%; background: var(--accent);
    transform-origin: 0 0; animation: grow ${duration}s linear both; }
  .orb { position: absolute; width: ${px(600)}; height: ${px(600)}; border-radius: 50%; right: ${px(-150)}; top: ${px(-150)};
    background: radial-gradient(circle, rgb(255 255 255 / 0.35), transparent 70%); animation: spin 4s linear infinite; }
  .card { position: absolute; width: ${px(380)}; height: ${px(190)}; border-radius: ${px(24)}; background: rgb(255 255 255 / 0.12);
    box-shadow: 0 ${px(12)} ${px(40)} rgb(0 0 0 / 0.35); animation: pop 0.8s cubic-bezier(.2,.9,.3,1.3) both; }
  .card p { margin: ${px(34)} 0 0 ${px(110)}; font-size: ${px(40)}; font-weight: 600; }
  .card span { position: absolute; right: ${px(28)}; bottom: ${px(22)}; font-size: ${px(32)}; color: var(--accent); }
  .dot { position: absolute; left: ${px(28)}; top: ${px(28)}; width: ${px(60)}; height: ${px(60)}; border-radius: 50%;
    animation: pulse 1.2s ease-in-out infinite alternate; }
  @keyframes rise { from { transform: translateY(${px(60)}); opacity: 0; } to { transform: none; opacity: 1; } }
  @keyframes grow { from { transform: scaleX(0); } to { transform: scaleX(1); } }
  @keyframes spin { to { transform: rotate(360deg) translateX(${px(40)}); } }
  @keyframes pop { from { transform: scale(0.6); opacity: 0; } to { transform: none; opacity: 1; } }
  @keyframes pulse { from { transform: scale(0.8); } to { transform: scale(1.1); } }
</style>
</head>
<body>
<div id="root" data-composition-id="reference" data-width="${width}" data-height="${height}" data-duration="${duration}">
  <div class="orb"></div>
  <h1 data-var-text="title">Quarterly results</h1>
${cards}
  <div class="bar"></div>
</div>
</body>
</html>
`;
}
