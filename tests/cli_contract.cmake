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
