// SPDX-License-Identifier: MIT
// Scenario presets: one click puts a whole request into the form. These are request documents
// (data, as a user would share them in a link), not rules: the core decides everything else.
// Their titles are the strings scenario.<id> and scenario.<id>.sub in i18n/*.js. The first three
// are the source's own scenarios (pretraining, fine-tuning, inference); the rest are common jobs.
export const SCENARIOS = [
  { id: 'pretrain_13b', source: true, request: { schema: 1, task: 'pretrain', model: { preset: 'llama-2-13b' },
    training: { sequence_length: 4096, tokens: 3e11, activation_checkpointing: 'selective' } } },
  { id: 'lora_7b', source: true, request: { schema: 1, task: 'lora', model: { preset: 'qwen2.5-7b' },
    training: { sequence_length: 2048, tokens: 1e8 } } },
  { id: 'serve_72b', source: true, request: { schema: 1, task: 'inference', model: { preset: 'qwen2.5-72b' },
    inference: { weight_format: 'int4', kv_cache_precision: 'fp8', prompt_tokens: 2048, output_tokens: 512,
      target_users: 50, target_tokens_per_second_per_user: 20 } } },
  { id: 'full_ft_14b', request: { schema: 1, task: 'full_finetune', model: { preset: 'qwen2.5-14b' },
    training: { sequence_length: 4096, tokens: 1e9 } } },
  { id: 'qlora_70b', request: { schema: 1, task: 'qlora', model: { preset: 'llama-3.1-70b' },
    training: { sequence_length: 2048, tokens: 5e7 } } },
  { id: 'lora_32b', request: { schema: 1, task: 'lora', model: { preset: 'qwen2.5-32b' },
    training: { sequence_length: 4096, tokens: 2e8 } } },
  { id: 'chat_8b', request: { schema: 1, task: 'inference', model: { preset: 'llama-3.1-8b' },
    inference: { prompt_tokens: 1024, output_tokens: 512, target_users: 100, target_tokens_per_second_per_user: 20 } } },
  { id: 'deepseek_v3', request: { schema: 1, task: 'inference', model: { preset: 'deepseek-v3' },
    inference: { weight_format: 'int4', kv_cache_precision: 'fp8', prompt_tokens: 2048, output_tokens: 1024,
      target_users: 50, target_tokens_per_second_per_user: 20 } } },
  { id: 'small_serve_7b', request: { schema: 1, task: 'inference', model: { preset: 'qwen2.5-7b' },
    inference: { weight_format: 'int4', prompt_tokens: 1024, output_tokens: 256, target_users: 4, target_tokens_per_second_per_user: 15 } } },
  { id: 'pretrain_8b', request: { schema: 1, task: 'pretrain', model: { preset: 'qwen3-8b' },
    training: { sequence_length: 4096, tokens: 1e11, activation_checkpointing: 'selective' } } },
];
