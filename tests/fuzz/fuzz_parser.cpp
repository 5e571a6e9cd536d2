// fuzz_parser.cpp - libFuzzer target: any byte string through the lexer, the
// parser (module mode and lambda mode), the AST printer and the diagnostics
// renderer must give diagnostics, never a crash, a hang or a sanitizer
// report. Build and run: make fuzz (FUZZ_SECONDS=N).
#include <cstddef>
#include <cstdint>
#include <string>

#include "frontend/ASTPrinter.h"
#include "frontend/Parser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text(reinterpret_cast<const char *>(data), size);
  for (bool lambdas : {false, true}) {
    kjit::SourceManager sm;
    kjit::DiagnosticEngine diags(sm);
    kjit::ast::ASTContext arena;
    uint32_t id = sm.add("fuzz.py", text, 7);
    kjit::ParseOptions opts;
    opts.lambdas = lambdas;
    kjit::ast::Module m = kjit::parseModule(arena, sm, id, diags, opts);
    std::string printed = kjit::ast::printModule(m);
    std::string rendered = diags.render();
    (void)printed;
    (void)rendered;
  }
  return 0;
}
