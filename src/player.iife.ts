// Classic-script player (`fx-player.iife.js`): defines <fx-composition> and nothing else, for pages that only embed
// previews. It adds no global; the class is `customElements.get('fx-composition')`. The whole SDK as `window.fx`
// is `fx.iife.js`.
import './elements/composition/define.js';
