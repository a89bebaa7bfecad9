# The CLI's contract: a good request exits 0 with the result; a bad one exits 1 with the
# {"error":{code,message,path}} envelope on stdout.
execute_process(COMMAND ${CLI} advise ${GOLDEN}/finetune_llama31_8b.request.json
                RESULT_VARIABLE rc OUTPUT_VARIABLE out)
if(NOT rc EQUAL 0 OR NOT out MATCHES "\"per_gpu_bytes\"")
  message(FATAL_ERROR "good request: exit ${rc}, output ${out}")
endif()
execute_process(COMMAND ${CLI} advise ${REQUESTS}/bad_negative_sequence.json
                RESULT_VARIABLE rc OUTPUT_VARIABLE out)
if(NOT rc EQUAL 1 OR NOT out MATCHES "\"path\":\"/training/sequence_length\"")
  message(FATAL_ERROR "bad request: exit ${rc}, output ${out}")
endif()
execute_process(COMMAND ${CLI} advise ${REQUESTS}/does-not-exist.json
                RESULT_VARIABLE rc OUTPUT_VARIABLE out)
if(NOT rc EQUAL 1 OR NOT out MATCHES "unreadable_file")
  message(FATAL_ERROR "missing file: exit ${rc}, output ${out}")
endif()
execute_process(COMMAND ${CLI} frobnicate RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
if(NOT rc EQUAL 2)
  message(FATAL_ERROR "unknown command: exit ${rc}")
endif()

# Validation scripts for a plan, written to a folder; a result file read back against it.
set(scripts_dir ${CMAKE_CURRENT_BINARY_DIR}/cli_scripts)
file(REMOVE_RECURSE ${scripts_dir})
execute_process(COMMAND ${CLI} scripts ${GOLDEN}/pretrain_llama2_13b_nodes.request.json -o ${scripts_dir}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out)
if(NOT rc EQUAL 0 OR NOT EXISTS ${scripts_dir}/00_inventory.sh OR NOT EXISTS ${scripts_dir}/40_burnin.sh)
  message(FATAL_ERROR "scripts: exit ${rc}, output ${out}")
endif()
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/h100x8.json
     "{\"schema\":1,\"task\":\"full_finetune\",\"model\":{\"preset\":\"llama-3.1-8b\"},\"hardware\":{\"gpu\":\"h100-sxm-80gb\",\"count\":8}}")
execute_process(COMMAND ${CLI} check ${CMAKE_CURRENT_BINARY_DIR}/h100x8.json ${SAMPLES}/gpu_truncated.csv
                RESULT_VARIABLE rc OUTPUT_VARIABLE out)
if(NOT rc EQUAL 1 OR NOT out MATCHES "csv_truncated")
  message(FATAL_ERROR "check of a truncated CSV: exit ${rc}, output ${out}")
endif()
execute_process(COMMAND ${CLI} check ${CMAKE_CURRENT_BINARY_DIR}/h100x8.json ${SAMPLES}/gpu_ok.csv
                RESULT_VARIABLE rc OUTPUT_VARIABLE out)
if(NOT rc EQUAL 3 OR NOT out MATCHES "thermal_throttle")
  message(FATAL_ERROR "check of a throttling GPU: exit ${rc}, output ${out}")
endif()
# Several result files: one per server, each server's report and one verdict (a CSV names no
# host, so each counts as a server: two for a one-server plan is a WARN, the throttling a FAIL).
execute_process(COMMAND ${CLI} check ${CMAKE_CURRENT_BINARY_DIR}/h100x8.json ${SAMPLES}/gpu_ok.csv
                ${SAMPLES}/gpu_ok.csv RESULT_VARIABLE rc OUTPUT_VARIABLE out)
if(NOT rc EQUAL 3 OR NOT out MATCHES "\"kind\": \"cluster\"" OR NOT out MATCHES "server_extra")
  message(FATAL_ERROR "check of two servers' files: exit ${rc}, output ${out}")
endif()

# Hostile input (issue 12): deep nesting and a provider catalog holding 1e400 are located
# errors (exit 1), not a segfault or an abort.
execute_process(COMMAND ${CLI} advise ${REQUESTS}/bad_deep_nesting.json
                RESULT_VARIABLE rc OUTPUT_VARIABLE out)
if(NOT rc EQUAL 1 OR NOT out MATCHES "\"code\":\"limit_exceeded\"" OR NOT out MATCHES "\"path\":\"/power/0/0")
  message(FATAL_ERROR "deep nesting: exit ${rc}, output ${out}")
endif()
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/gpus_1e400.json
     "{\"schema\": 1, \"as_of\": \"x\", \"gpus\": [{\"id\": \"x\", \"tdp_watts\": 1e400}]}")
execute_process(COMMAND ${CLI} advise ${GOLDEN}/finetune_llama31_8b.request.json
                        --gpus ${CMAKE_CURRENT_BINARY_DIR}/gpus_1e400.json
                RESULT_VARIABLE rc OUTPUT_VARIABLE out)
if(NOT rc EQUAL 1 OR NOT out MATCHES "\"path\":\"gpus.json/gpus/0/tdp_watts\"")
  message(FATAL_ERROR "1e400 in a provider catalog: exit ${rc}, output ${out}")
endif()
