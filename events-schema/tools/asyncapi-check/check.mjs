// Loads the AsyncAPI document with the official parser and fails on any error diagnostic: a reference
// that does not resolve (a missing file, or a host that does not exist, as rayscale.dev does not) is
// an `invalid-ref` error. Every reference of the document is to a file beside it.
//   node check.mjs PATH/TO/asyncapi.yaml
import { Parser, fromFile } from '@asyncapi/parser';

const path = process.argv[2];
const { document, diagnostics } = await fromFile(new Parser(), path).parse();
const errors = diagnostics.filter((diagnostic) => diagnostic.severity === 0);
for (const diagnostic of diagnostics) {
  const level = ['error', 'warning', 'info', 'hint'][diagnostic.severity] ?? diagnostic.severity;
  console.log(`${level}: ${diagnostic.code}: ${diagnostic.message} at /${(diagnostic.path ?? []).join('/')}`);
}
if (!document || errors.length > 0) {
  console.error(`asyncapi-check: ${path} does not load (${errors.length} error(s))`);
  process.exit(1);
}
const messages = document.allMessages().all().map((message) => message.name());
console.log(`asyncapi-check: ${path} loads: AsyncAPI ${document.version()}, ${document.channels().length} channels, `
  + `messages ${messages.join(', ')}, no diagnostics at error level`);
