// The demo's compositions, said once: the picker's options, the folder the panel's copied command names, and a
// sample batch for each (CSV or JSON rows, the two forms the batch box reads).
export const COMPOSITIONS = [
  {
    id: 'launch',
    label: 'Launch week · three sub-composition instances',
    batch: 'headline,accent,badge\nMonday launch,#f97316,live\nTuesday launch,#22d3ee,beta\n',
  },
  {
    id: 'media',
    label: 'Media · an image, a video and a sound',
    batch:
      '[\n  { "title": "Quiet version", "music": false },\n  { "title": "Softer music", "volume": 0.3, "accent": "#f472b6" }\n]\n',
  },
  {
    id: 'story',
    label: 'Story · portrait 9:16',
    batch: 'name,stat,theme\nGrace Hopper,92,sunrise\nAlan Turing,64,mint\n',
  },
];

export const compositionSrc = (id) => `./compositions/${id}/index.html`;
/** As the repository names it: what the panel's "copy as command" puts after `fx cloud render`. */
export const projectDir = (id) => `demo/compositions/${id}`;
