export { FxComposition } from './fx-composition.js';
export { FxEvent, FxAttribute, FxErrorCode } from './constants.js';
export type { FxCompositionEventMap, FxErrorDetail, FxVariablesChangeDetail } from './events.js';
export { FxRenderButton, type FxRenderButtonEventMap, type FxRenderedDetail } from './fx-render-button.js';
export { FxRenderButtonEvent, FxRenderButtonAttribute, FxRenderButtonErrorCode } from './render-button-constants.js';
export { checkVariableBounds } from './variable-bounds.js';
export { FxVariablesPanel } from './fx-variables-panel.js';
export { FxVariablesPanelEvent, FxVariablesPanelAttribute, FxVariablesPanelErrorCode } from './panel-constants.js';
