// SPDX-License-Identifier: MIT
// The fixed text of the validation scripts: core/validation/bodies/*.sh and *.py, kept as the
// shell and Python files they are (an editor and a reader see them as such) and compiled in by
// core/validation/embed_bodies.cmake. scripts.cpp puts each plan's expected values on top.
#pragma once
#include <string_view>

namespace advisor::validation {

/// The text of bodies/`file` ("inventory.sh", "probe.py", ...); a name that is not one stops the
/// core (broken_invariant: the names are fixed in scripts.cpp and CMake, no input reaches them).
const char* body(std::string_view file);

}  // namespace advisor::validation
