export {
  type ActionDescriptor,
  type ActionParameterSpec,
  actionCatalog,
  type InputParameter,
  type SelectParameter,
} from './catalog.js';
export { type ActionRequest, readActionRequest } from './input.js';
export {
  ACTION_VERSION,
  type ActionMetadataBody,
  type ActionsJsonBody,
  actionMetadata,
  actionsJson,
  type LinkedActionBody,
  presetValues,
  solanaChainId,
} from './metadata.js';
