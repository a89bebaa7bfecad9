# Writes OUTPUT: a C++ file holding the fixed texts of the validation scripts
# (core/validation/bodies/*.sh and *.py; BODIES: their names, separated by ":") as raw strings, looked up by name
# (validation/bodies.hpp). Run with cmake -P (core/validation.cmake does).
set(body "// Generated from core/validation/bodies/ by core/validation/embed_bodies.cmake. Do not edit.\n#include \"validation/bodies.hpp\"\n\n#include <string>\n\n#include \"types/errors.hpp\"\n\nnamespace advisor::validation {\n\nnamespace {\nstruct Body {\n  std::string_view name;\n  const char* text;\n};\nconstexpr Body kBodies[] = {\n")
string(REPLACE ":" ";" BODIES "${BODIES}")
foreach(name IN LISTS BODIES)
  file(READ "${BODY_DIR}/${name}" text)
  # A part's first line tells shellcheck its shell (a part has no shebang of its own): it is for
  # checking the part where it is kept, not for the scripts made from it.
  string(REGEX REPLACE "^# shellcheck [^\n]*\n" "" text "${text}")
  string(FIND "${text}" ")gpuadv\"" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "${name} contains the raw-string delimiter")
  endif()
  string(APPEND body "    {\"${name}\", R\"gpuadv(${text})gpuadv\"},\n")
endforeach()
string(APPEND body "};\n}  // namespace\n\nconst char* body(std::string_view file) {\n  for (const Body& b : kBodies)\n    if (b.name == file) return b.text;\n  broken_invariant(\"no script body \" + std::string(file));\n}\n\n}  // namespace advisor::validation\n")
file(WRITE "${OUTPUT}.tmp" "${body}")
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
