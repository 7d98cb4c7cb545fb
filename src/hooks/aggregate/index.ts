/** The pure aggregation rules of hook-semantics §1.5–§1.12 and §2.5, one per file. */
export { blockMessage } from './block-message.ts';
export { commandDecision, type CommandDecision } from './command-decision.ts';
export { firstNonEmptyString } from './first-non-empty-string.ts';
export { firstString } from './first-string.ts';
export { gatewayDispatchAction, type GatewayDispatchAction } from './gateway-dispatch-action.ts';
export { joinLlmContext } from './llm-context.ts';
export { promptBlockMessage, type PromptBlock } from './prompt-block.ts';
