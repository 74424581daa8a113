/** Mount point for the elicitation dialog queue (built by the resources/elicitation work). */
export function ElicitationHost() {
  return null;
}
