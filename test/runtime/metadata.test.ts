// extractCompositionMetadata in a real Chromium; metadata.node.test.ts runs the same table through the Node adapter.
import { expect } from '@open-wc/testing';
import { extractCompositionMetadata } from '../../src/runtime/metadata.js';
import { metadataCases, metadataSummary, findingShapeProblems } from './lint-cases.js';
import { metadataOf } from '../../src/runtime/metadata.js';
import { MetadataIssueCode, rootMetadata } from '../../src/runtime/root-metadata.js';

describe('extractCompositionMetadata (browser DOMParser)', () => {
  for (const testCase of metadataCases) {
    it(`reads ${testCase.name}`, () => {
      expect(metadataSummary(testCase.html)).to.deep.equal(testCase.expected);
    });
  }

  it('returns whole declarations, with extra fields and entity-decoded defaults', () => {
    const html = `<div data-composition-id="m" data-duration="1" data-composition-variables='[{"id":"t","type":"string","label":"T","default":"a &amp; b","role":"headline"}]'></div>`;
    const { variables, issues } = extractCompositionMetadata(html);
    expect(issues).to.deep.equal([]);
    expect(variables).to.deep.equal([{ id: 't', type: 'string', label: 'T', default: 'a & b', role: 'headline' }]);
  });

  it('gives root_attribute_invalid issues a readable message naming the attribute and the value', () => {
    const { issues } = extractCompositionMetadata(
      '<div data-composition-id="m" data-width="abc" data-duration="2"></div>',
    );
    expect(issues).to.have.length(1);
    expect(issues[0]).to.include({ code: 'root_attribute_invalid', severity: 'error' });
    expect(issues[0]!.message).to.contain('"data-width"').and.to.contain('"abc"');
    expect(issues.flatMap(findingShapeProblems)).to.deep.equal([]);
  });

  it("says what a composition without a duration needs, with the renderer's code", () => {
    const { issues } = extractCompositionMetadata('<div data-composition-id="m" data-width="640"></div>');
    expect(issues).to.have.length(1);
    expect(issues[0]).to.include({ code: 'composition_duration_missing', severity: 'error' });
    expect(issues[0]!.message).to.contain('positive "data-duration"');
  });

  it('does not touch the page it runs in', () => {
    const before = document.documentElement.outerHTML;
    extractCompositionMetadata(
      '<html data-width="5"><body><div data-composition-id="x" data-duration="1"></div><script>document.title = "hijacked"</script></body></html>',
    );
    expect(document.documentElement.outerHTML).to.equal(before);
  });
});

describe('rootMetadata (the element’s light reader) agrees with metadataOf', () => {
  const ROOT_CODES: string[] = Object.values(MetadataIssueCode);
  const documents = [
    '<html><body><div data-composition-id="a" data-width="640" data-height="360" data-duration="4"></div></body></html>',
    '<template><div data-composition-id="card" data-width="320" data-height="180" data-duration="2"></div></template>',
    '<div data-composition-id="x" data-width="abc" data-height="-1" data-duration="0"></div>',
    '<html data-width="100" data-height="50"><body><div data-composition-id="y"></div></body></html>',
    '<p>no root</p>',
  ];
  for (const html of documents) {
    it(`reads the same id, size, duration and size issues from ${JSON.stringify(html.slice(0, 50))}`, () => {
      const doc = new DOMParser().parseFromString(html, 'text/html');
      const full = metadataOf(doc);
      const light = rootMetadata(doc);
      expect({ ...light, variables: [] }).to.deep.equal({
        ...full,
        variables: [],
        issues: full.issues.filter((found) => ROOT_CODES.includes(found.code)),
      });
    });
  }
});
