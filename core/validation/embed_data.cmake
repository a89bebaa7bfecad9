# Writes OUTPUT: a C++ file returning the texts of data/ngc.json and data/validation.json, so
# the CLI and the wasm module carry them. Run with cmake -P (core/validation.cmake does).
set(body "// Generated from data/ngc.json and data/validation.json by core/validation/embed_data.cmake. Do not edit.\n#include \"io/validation_json.hpp\"\n\nnamespace advisor::validation {\n")
foreach(name IN ITEMS ngc validation)
  file(READ "${DATA_DIR}/${name}.json" text)
  string(FIND "${text}" ")gpuadv\"" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "${name}.json contains the raw-string delimiter")
  endif()
  string(APPEND body "const char* builtin_${name}_json() {\n  return R\"gpuadv(${text})gpuadv\";\n}\n")
endforeach()
string(APPEND body "}  // namespace advisor::validation\n")
file(WRITE "${OUTPUT}.tmp" "${body}")
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
