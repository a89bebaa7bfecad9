# Writes OUTPUT: a C++ file returning the texts of data/*.json, so the wasm module and the CLI
# carry the catalogs (the page works from file:// with no fetch). Run with cmake -P.
set(names gpus models assumptions performance prices)
set(body "// Generated from data/*.json by cmake/embed_data.cmake. Do not edit.\n#include \"io/catalog_json.hpp\"\n\nnamespace advisor {\n")
foreach(name IN LISTS names)
  file(READ "${DATA_DIR}/${name}.json" text)
  string(FIND "${text}" ")gpuadv\"" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "${name}.json contains the raw-string delimiter")
  endif()
  # Indentation out (JSON strings cannot hold a raw newline, so every newline is between tokens):
  # ~20% of the data's bytes in the module, parsed as before.
  string(REGEX REPLACE "\n[ ]+" "\n" text "${text}")
  string(APPEND body "const char* builtin_${name}_json() {\n  return R\"gpuadv(${text})gpuadv\";\n}\n")
endforeach()
string(APPEND body "}  // namespace advisor\n")
file(WRITE "${OUTPUT}.tmp" "${body}")
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
