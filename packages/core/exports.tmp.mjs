import ts from 'typescript';

const [entry] = process.argv.slice(2);
const program = ts.createProgram([entry], {
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  target: ts.ScriptTarget.ES2022,
  skipLibCheck: true,
  noEmit: true,
});
const checker = program.getTypeChecker();
const sf = program.getSourceFile(entry);
const sym = checker.getSymbolAtLocation(sf);
console.log(
  checker
    .getExportsOfModule(sym)
    .map((s) => s.getName())
    .sort()
    .join('\n'),
);
