# The rules of core/README.md, checked on every test run:
#  1. JSON stops at io/: nothing in core/types, core/engine, core/plan or core/validation
#     mentions nlohmann.
#  2. Everything the core uses is an argument: no builtin_*() data below the API layer
#     (io/catalog_json.* declares the embedded texts; api.cpp is the only caller).
#  3. Small modules: no core .cpp over 600 lines.
#  4. nlohmann/json at the edge only: two files include it, json_text.cpp (its SAX parser feeds
#     the core's JsonValue) and json_scalars.cpp (its serializer prints every number and escaped
#     string the core writes); no header does, so its DOM never spreads through the core (the
#     wasm module's size).
#  5. Every core .cpp has its own header (the .hpp of the same name) declaring what it defines.
set(failures "")
foreach(layer types engine plan validation)
  file(GLOB_RECURSE files ${CORE}/${layer}/*.hpp ${CORE}/${layer}/*.cpp)
  foreach(f ${files})
    file(READ ${f} text)
    if(text MATCHES "nlohmann")
      string(APPEND failures "\n  ${f}: JSON outside io/ (nlohmann)")
    endif()
    if(text MATCHES "builtin_[a-z_]*\\(")
      string(APPEND failures "\n  ${f}: built-in data below the API layer")
    endif()
  endforeach()
endforeach()
file(GLOB_RECURSE sources ${CORE}/*.cpp)
file(GLOB_RECURSE all_core ${CORE}/*.hpp ${CORE}/*.cpp)
foreach(f ${all_core})
  file(READ ${f} text)
  get_filename_component(name ${f} NAME)
  if(text MATCHES "#include <nlohmann/" AND NOT name MATCHES "^json_(text|scalars)\\.cpp$")
    string(APPEND failures "\n  ${f}: includes nlohmann (only io/json_text.cpp and io/json_scalars.cpp may)")
  endif()
endforeach()
foreach(f ${sources})
  string(REGEX REPLACE "\\.cpp$" ".hpp" header "${f}")
  if(NOT EXISTS "${header}")
    string(APPEND failures "\n  ${f}: no header of its own")
  endif()
  file(STRINGS ${f} lines)
  list(LENGTH lines n)
  if(n GREATER 600)
    string(APPEND failures "\n  ${f}: ${n} lines (limit 600)")
  endif()
endforeach()
if(failures)
  message(FATAL_ERROR "core layering rules broken:${failures}")
endif()
message(STATUS "core layering rules hold")
