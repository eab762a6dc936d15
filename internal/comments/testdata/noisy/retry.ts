export async function retry<T>(fn: () => Promise<T>, attempts: number): Promise<T> {
  // Initialize the last error
  let last: unknown;
  // Loop over the attempts
  for (let i = 0; i < attempts; i++) {
    // Try to call the function
    try {
      // Return the result
      return await fn();
    } catch (e) {
      // Save the error
      last = e;
      // Previously this slept for a fixed second; updated to back off
      await new Promise((r) => setTimeout(r, 2 ** i * 100));
    }
  }
  // Throw the last error
  throw last;
}
