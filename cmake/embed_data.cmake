# Writes OUTPUT: a C++ file returning the texts of DATA_DIR/<name>.json as builtin_<PREFIX><name>_json()
# (a '-' in a name is '_' in its function), so the wasm module and the CLI carry the catalogs
# (the page works from file:// with no fetch) and the CLI its message tables. Run with cmake -P;
# NAMES is comma-separated (default: the five catalogs), PREFIX is optional.
if(DEFINED NAMES)
  string(REPLACE "," ";" names "${NAMES}")
else()
  set(names gpus models assumptions performance prices)
endif()
set(body "// Generated from ${DATA_DIR}/*.json by cmake/embed_data.cmake. Do not edit.\n\nnamespace advisor {\n")
foreach(name IN LISTS names)
  file(READ "${DATA_DIR}/${name}.json" text)
  string(FIND "${text}" ")gpuadv\"" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "${name}.json contains the raw-string delimiter")
  endif()
  # Indentation out (JSON strings cannot hold a raw newline, so every newline is between tokens):
  # ~20% of the data's bytes in the module, parsed as before.
  string(REGEX REPLACE "\n[ ]+" "\n" text "${text}")
  string(REPLACE "-" "_" function "builtin_${PREFIX}${name}_json")
  string(APPEND body "const char* ${function}() {\n  return R\"gpuadv(${text})gpuadv\";\n}\n")
endforeach()
string(APPEND body "}  // namespace advisor\n")
file(WRITE "${OUTPUT}.tmp" "${body}")
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
