// Python: warnings as data, a kind (stable name), the one-line message, a subject and details.
#include <variant>

#include <fmt/core.h>
#include <pybind11/stl.h>

#include "module.h"
#include "throng/core/warning.h"

namespace throng::python {

void bindWarning(py::module_& m) {
  py::class_<Warning>(
      m, "Warning",
      "A non-fatal finding of import, bake or the LOD chain: kind (a stable name such as "
      "'joint_renamed'), message (the one line the CLI prints), subject (what it is about, in a "
      "few words) and details (a dict: file, joint, animation, counts, ...).")
      .def_property_readonly("kind", [](const Warning& w) { return warningKindName(w.kind); })
      .def_readonly("message", &Warning::message)
      .def_readonly("subject", &Warning::subject)
      .def_property_readonly("details",
                             [](const Warning& w) {
                               py::dict details;
                               for (const WarningDetail& d : w.details) {
                                 std::visit([&](const auto& v) { details[py::str(d.key)] = v; },
                                            d.value);
                               }
                               return details;
                             })
      .def_property_readonly(
          "summary", [](const Warning& w) { return warningKindSummary(w.kind); },
          "what several warnings of this kind are, after a count: 'joints renamed (duplicate "
          "names)'")
      .def("__str__", [](const Warning& w) { return w.message; })
      .def("__repr__", [](const Warning& w) {
        return fmt::format("Warning('{}', '{}')", warningKindName(w.kind), w.subject);
      });
}

}  // namespace throng::python
