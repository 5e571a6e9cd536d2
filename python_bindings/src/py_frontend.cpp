// py_frontend.cpp - the parser, callable from Python.
#include <pybind11/stl.h>

#include <memory>

#include "compiler/Context.h"
#include "frontend/ASTPrinter.h"
#include "py_common.h"

namespace py = pybind11;

namespace kjit::py {

namespace {

// The result of a successful parse: the module's functions and its dump.
struct ParsedModule {
  std::unique_ptr<Context> ctx;
  ast::Module module;

  std::vector<std::string> functionNames() const {
    std::vector<std::string> names;
    for (const ast::FunctionDef *f : module.functions) names.push_back(f->name);
    return names;
  }
  std::string dump(const std::string &function, bool locs) const {
    ast::PrintOptions opts;
    opts.withExprLocs = locs;
    if (function.empty()) return ast::printModule(module, opts);
    const ast::FunctionDef *f = module.findFunction(function);
    if (!f) throw pybind11::key_error("no function '" + function + "' in the parsed source");
    return ast::printStmt(f, opts);
  }
};

std::shared_ptr<ParsedModule> parse(std::string source, std::string filename, uint32_t firstLine,
                                    std::string function) {
  auto result = std::make_shared<ParsedModule>();
  result->ctx = std::make_unique<Context>();
  ParseOptions opts;
  opts.onlyFunction = std::move(function);
  {
    pybind11::gil_scoped_release release;
    result->module = result->ctx->parse(std::move(filename), std::move(source), firstLine, opts);
  }
  const DiagnosticEngine &diags = result->ctx->diags;
  if (diags.hasErrors())
    throw jit::CompileFailure(diags.render(), result->ctx->sources, diags.diagnostics());
  return result;
}

}  // namespace

void define_frontend(pybind11::module_ &m) {
  pybind11::class_<ParsedModule, std::shared_ptr<ParsedModule>>(m, "ParsedModule")
      .def_property_readonly("functions", &ParsedModule::functionNames,
                             "names of the top-level functions, in order")
      .def("dump", &ParsedModule::dump, pybind11::arg("function") = "",
           pybind11::arg("locations") = false, "the AST as kjitc --emit=ast prints it");

  m.def("parse", &parse, pybind11::arg("source"), pybind11::arg("filename") = "<string>",
        pybind11::arg("first_line") = 1, pybind11::arg("function") = "",
        "Parse kernel-language source. Raises kjit.errors.CompileError (or a subclass) "
        "naming file, line and column when the source has errors.");
}

}  // namespace kjit::py
