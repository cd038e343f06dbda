export { FxComposition } from './fx-composition.js';
export { FxEvent, FxAttribute, FxErrorCode } from './constants.js';
export type { FxCompositionEventMap, FxErrorDetail, FxVariablesChangeDetail } from './events.js';
