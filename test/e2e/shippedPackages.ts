/**
 * The three packages the project ships, as the e2e files that install them put them through n8n
 * (editions, two-packages, unverified-packages, release): each packed from what `npm run build`
 * assembled in dist-packages/ (tools/packages/).
 *
 * The node and credential types below are written out by hand, not read from the packages'
 * definitions: they are what the tests assert n8n loads.
 */
import { CREDENTIAL_TYPES, packPackage } from '../../tools/n8n/communityPackage';
import type { LocalRegistry } from '../../tools/n8n/registry';
import { CHAT_APP_MESSAGING, COMBINED as COMBINED_DEFINITION, TIMELINE_NAVIGATION, type PackageDefinition } from '../../tools/packages/packages';

export interface ShippedPackage {
	/** The npm name. */
	name: string;
	/**
	 * Its node types as n8n keys them (`<package>.<node>`): the action node, the messaging
	 * trigger and the timeline (polling) trigger, if it has them.
	 */
	nodes: { action: string; trigger?: string; pollingTrigger?: string };
	/** The credential types it defines (the same names in every package). */
	credentials: string[];
	/** Packs it into `dir` from the build of `root` (default this checkout); returns the tarball's path. */
	pack(dir: string, root?: string): string;
}

function shipped(definition: PackageDefinition, nodes: ShippedPackage['nodes'], credentials: string[]): ShippedPackage {
	const type = (node: string) => `${definition.name}.${node}`;
	return {
		name: definition.name,
		nodes: Object.fromEntries(Object.entries(nodes).map(([role, node]) => [role, type(node)])) as ShippedPackage['nodes'],
		credentials,
		pack: (dir, root) => packPackage(dir, root, definition.name),
	};
}

const { timeline, messaging, webhookHeader, webhookBasic } = CREDENTIAL_TYPES;

export const COMBINED = shipped(COMBINED_DEFINITION, { action: 'timelineNavigation', trigger: 'chatAppMessagingTrigger', pollingTrigger: 'timelineNavigationEventsTrigger' }, [
	timeline,
	messaging,
	webhookHeader,
	webhookBasic,
]);
export const MESSAGING_EDITION = shipped(CHAT_APP_MESSAGING, { action: 'chatAppMessaging', trigger: 'chatAppTrigger' }, [messaging, webhookHeader, webhookBasic]);
export const TIMELINE_EDITION = shipped(TIMELINE_NAVIGATION, { action: 'timelineNavigationService', pollingTrigger: 'timelineEventsTrigger' }, [timeline]);

/** The single-service editions, each sharing credential types with the combined package. */
export const EDITIONS: readonly ShippedPackage[] = [MESSAGING_EDITION, TIMELINE_EDITION];

/** Every package a user can install. */
export const SHIPPED: readonly ShippedPackage[] = [COMBINED, ...EDITIONS];

/** Every node type of `packages`. */
export function nodeTypesOf(packages: readonly ShippedPackage[]): string[] {
	return packages.flatMap((p) => Object.values(p.nodes));
}

/** Packs each package into `dir` and publishes it to `registry`; returns the tarballs by package name. */
export function packAndPublish(
	packages: readonly ShippedPackage[],
	dir: string,
	registry: Pick<LocalRegistry, 'publish'>,
	root?: string,
): Map<string, string> {
	const tarballs = new Map<string, string>();
	for (const pkg of packages) {
		const tarball = pkg.pack(dir, root);
		registry.publish(tarball);
		tarballs.set(pkg.name, tarball);
	}
	return tarballs;
}
