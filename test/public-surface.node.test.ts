// The names each published entry offers, read from its built declarations (dist/types, after stripInternal): they
// must be exactly the lists below, which are what docs/sdk.md, docs/elements.md and DESIGN.md document plus the types their signatures
// use. A new public name fails here until it is documented and added; a helper stays out of the barrel, or carries
// `@internal`. Needs dist/ built, as `npm test` does before this.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { declarationExports, declarationGraph, type ExportKind } from './declaration-exports.js';

const types = fileURLToPath(new URL('../dist/types/', import.meta.url));

const RUNTIME_VALUES = [
  'Attr',
  'BindingIssueCode',
  'DeclarationIssueCode',
  'FxError',
  'LayoutIssueCode',
  'LintCode',
  'MetadataIssueCode',
  'RuntimeErrorCode',
  'ValueIssueCode',
  'applyBindings',
  'declarationListSchema',
  'declarationSchemas',
  'extractCompositionMetadata',
  'isFxError',
  'isSafeMediaUrl',
  'lintComposition',
  'parseVariableDeclarations',
  'resolveVariables',
  'sanitizeCssValue',
  'validateVariables',
  'variableDeclarationSchema',
];
const RUNTIME_TYPES = [
  'BooleanDeclaration',
  'ColorDeclaration',
  'CompositionMetadata',
  'EnumDeclaration',
  'EnumOption',
  'FontDeclaration',
  'FontValue',
  'ImageDeclaration',
  'ImageValue',
  'Issue',
  'IssuePath',
  'IssueSeverity',
  'LintFinding',
  'LintOptions',
  'NumberDeclaration',
  'ParsedDeclarations',
  'ResolveLayers',
  'ResolvedVariables',
  'StringDeclaration',
  'ValidateOptions',
  'VariableDeclaration',
  'VariableValues',
];
// The /v3 client (request/response pairs, FxClient, zipping, cloudRender, batches) and sign-in: docs/elements.md "Render this", docs/client.md.
const CLIENT_VALUES = [
  'BatchErrorCode',
  'ClientErrorCode',
  'CloudRenderStage',
  'CsvErrorCode',
  'ErrorCode',
  'FxApiError',
  'FxClient',
  'IGNORE_FILE',
  'MAX_BATCH_CONCURRENCY',
  'ProjectSourceErrorCode',
  'RenderStatus',
  'ZIP_LIMITS',
  'ZipError',
  'ZipErrorCode',
  'apiKeyCredentials',
  'batchRows',
  'clientConfig',
  'cloudRender',
  'cloudRenderBatch',
  'createRenderRequest',
  'deleteRenderRequest',
  'describeProgress',
  'downloadRender',
  'downloadRenderStream',
  'dryRunRenderRequest',
  'fillMetadata',
  'getAccountRequest',
  'getRenderRequest',
  'listRendersRequest',
  'parseCsv',
  'processCreateRenderResponse',
  'processDeleteRenderResponse',
  'processDryRunRenderResponse',
  'processGetAccountResponse',
  'processGetRenderResponse',
  'processListRendersResponse',
  'processUploadAssetResponse',
  'progressFraction',
  'uploadAssetRequest',
  'waitForRender',
  'zipProject',
];
const CLIENT_TYPES = [
  'Account',
  'ApiErrorCode',
  'AspectRatio',
  'Asset',
  'BatchManifestRow',
  'CallOptions',
  'ClientConfig',
  'ClientOptions',
  'CloudBatchOptions',
  'CloudDryRunOptions',
  'CloudDryRunResult',
  'CloudProject',
  'CloudRenderOptions',
  'CloudRenderProgress',
  'CloudRenderResult',
  'Credentials',
  'DeletedRender',
  'DownloadOptions',
  'DownloadProgress',
  'DownloadedFile',
  'DryRun',
  'EmbedLike',
  'IdempotentCallOptions',
  'ListOptions',
  'ProjectEntry',
  'ProjectSource',
  'ProjectZip',
  'Render',
  'RenderFormat',
  'RenderList',
  'RenderQuality',
  'RenderRequest',
  'RenderResolution',
  'RenderSettingsOptions',
  'RetryOptions',
  'TimeRange',
  'UploadOptions',
  'WaitOptions',
  'WrittenEntry',
  'ZipLimits',
  'ZipProgress',
  'ZipProjectOptions',
];
const AUTH_VALUES = ['AuthErrorCode', 'BROWSER_CLIENT_ID', 'MemoryCredentialStore', 'OAuthSession'];
const AUTH_TYPES = ['AuthError', 'CredentialStore', 'LockRunner', 'SessionOptions', 'TokenRecord'];
const BROWSER_AUTH_VALUES = ['BrowserSignIn', 'createBrowserSignIn', 'loadApiKey', 'openBrowserStore', 'saveApiKey'];
const BROWSER_AUTH_TYPES = ['BrowserSignInOptions', 'PopupOptions'];
// docs/export.md: in-browser export.
const EXPORT_VALUES = [
  'CAPTURE_RASTERISERS',
  'CaptureRasteriser',
  'CaptureRefusalCode',
  'EXPORT_FORMATS',
  'ExportErrorCode',
  'FxRenderButtonMode',
  'STILL_TYPES',
  'captureFrame',
  'exportVideo',
];
const EXPORT_TYPES = [
  'CaptureFrameOptions',
  'CaptureRasteriserChoice',
  'CaptureRefusal',
  'ExportFormat',
  'ExportProgress',
  'ExportVideoOptions',
  'ExportVideoResult',
  'StillType',
];
// docs/elements.md "Frameworks": each element's properties and listeners, and per framework one markup type per element.
const FRAMEWORK_TYPES = [
  'FxCompositionListeners',
  'FxCompositionProperties',
  'FxRenderButtonListeners',
  'FxRenderButtonProperties',
  'FxVariablesPanelListeners',
  'FxVariablesPanelProperties',
];

/** Each entry's declaration file (package.json `exports`) and its public names. */
const EXPECTED: Record<string, { values: string[]; types: string[] }> = {
  'index.d.ts': {
    values: [
      ...RUNTIME_VALUES,
      ...CLIENT_VALUES,
      ...AUTH_VALUES,
      ...BROWSER_AUTH_VALUES,
      ...EXPORT_VALUES,
      'CompileIssueCode',
      'FxComposition',
      'FxCompositionAttribute',
      'FxCompositionErrorCode',
      'FxCompositionEvent',
      // The same three tables under their names of before (@deprecated aliases, so user code keeps compiling).
      'FxAttribute',
      'FxErrorCode',
      'FxEvent',
      'FxRenderButton',
      'FxRenderButtonAttribute',
      'FxRenderButtonErrorCode',
      'FxRenderButtonEvent',
      'FxVariablesPanel',
      'FxVariablesPanelAttribute',
      'FxVariablesPanelErrorCode',
      'FxVariablesPanelEvent',
      'checkVariableBounds',
      'compileComposition',
    ],
    types: [
      ...RUNTIME_TYPES,
      ...CLIENT_TYPES,
      ...AUTH_TYPES,
      ...BROWSER_AUTH_TYPES,
      ...EXPORT_TYPES,
      'CompileLimits',
      'CompileOptions',
      'CompiledComposition',
      'FxCompositionEventMap',
      'FxErrorDetail',
      'FxRenderButtonEventMap',
      'FxRenderedDetail',
      'FxVariablesChangeDetail',
      'HtmlEntry',
    ],
  },
  'node.d.ts': {
    values: [
      ...RUNTIME_VALUES,
      ...CLIENT_VALUES,
      ...AUTH_VALUES,
      'CredentialEnv',
      'DEFAULT_API_URL',
      'FileCredentialStore',
      'LoopbackSignIn',
      'defaultCredentialsPath',
      'readProjectDirectory',
      'resolveNodeCredentials',
      'zipProjectDirectory',
    ],
    types: [
      ...RUNTIME_TYPES,
      ...CLIENT_TYPES,
      ...AUTH_TYPES,
      'ApiKeySource',
      'LoopbackSignInOptions',
      'NodeCredentials',
      'ResolveOptions',
    ],
  },
  'frameworks/react.d.ts': {
    values: ['FxComposition', 'FxRenderButton', 'FxVariablesPanel'],
    types: [...FRAMEWORK_TYPES, 'FxCompositionProps', 'FxRenderButtonProps', 'FxVariablesPanelProps'],
  },
  'frameworks/svelte.d.ts': {
    values: [],
    types: [...FRAMEWORK_TYPES, 'FxCompositionAttributes', 'FxRenderButtonAttributes', 'FxVariablesPanelAttributes'],
  },
};

const byKind = (names: Map<string, ExportKind>, kind: ExportKind) =>
  [...names]
    .filter(([, k]) => k === kind)
    .map(([name]) => name)
    .sort();

test('every declaration file package.json exports is listed here', () => {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    exports: Record<string, string | { types?: string }>;
  };
  const entries = new Set(
    Object.values(pkg.exports).flatMap((target) =>
      typeof target === 'object' && target.types ? [target.types.replace('./dist/types/', '')] : [],
    ),
  );
  assert.deepEqual([...entries].sort(), Object.keys(EXPECTED).sort());
});

for (const [entry, expected] of Object.entries(EXPECTED)) {
  test(`${entry} exports exactly the documented names`, () => {
    const file = join(types, entry);
    assert.ok(existsSync(file), `${file} is missing: build first (node scripts/build.mjs)`);
    const names = declarationExports(file);
    assert.deepEqual(
      { values: byKind(names, 'value'), types: byKind(names, 'type') },
      { values: [...expected.values].sort(), types: [...expected.types].sort() },
    );
  });
}

test('index.d.ts brings the tag into HTMLElementTagNameMap (querySelector types the element)', () => {
  const augmentation = /interface HTMLElementTagNameMap \{\s*'fx-composition': FxComposition;/;
  const files = [...declarationGraph(join(types, 'index.d.ts'))].filter((file) =>
    augmentation.test(readFileSync(file, 'utf8')),
  );
  assert.equal(files.length, 1, 'no declaration file reached from index.d.ts maps <fx-composition> to FxComposition');
});

test('the reader follows re-exports and refuses one whose name its module does not declare', () => {
  const fixture = fileURLToPath(new URL('fixtures/public-surface/entry.d.ts', import.meta.url));
  assert.deepEqual(Object.fromEntries(declarationExports(fixture)), {
    a: 'value',
    B: 'type',
    C: 'type',
    d: 'value',
    renamed: 'value',
    E: 'value',
    F: 'type',
    G: 'type',
  });
  assert.throws(
    () => declarationExports(join(dirname(fixture), 'dangling.d.ts')),
    /"stripped" is not declared by .*leaf\.d\.ts/,
  );
});
