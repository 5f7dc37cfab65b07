// The sandbox of one test file, set up the one way every in-process test file sets it up.
import { startSandbox, type Sandbox, type SandboxOptions } from '../../tools/sandbox/server';

/**
 * Registers the file's hooks: the sandbox starts on a free port before the file's first test, is
 * reset before each test (data, faults, request log, clock) and closed after the last. Returns a
 * stand-in for it that the tests and the file's later hooks use as the sandbox itself.
 */
export function sandboxPerFile(options?: SandboxOptions): Sandbox {
	let started: Sandbox | undefined;
	beforeAll(async () => {
		started = await startSandbox(options);
	});
	afterAll(async () => started?.close());
	beforeEach(async () => started?.client.reset());
	return new Proxy({} as Sandbox, {
		get(_stand, key) {
			if (!started) throw new Error('the sandbox starts in the file\'s first beforeAll: use it in a test or a later hook');
			const value = Reflect.get(started, key);
			return typeof value === 'function' ? value.bind(started) : value;
		},
	});
}
