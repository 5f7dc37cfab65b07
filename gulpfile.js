// Copies the SVG icons (light and dark) next to the compiled nodes and credentials. Each node's
// codex file and each package's entry point are written when the build assembles the packages
// (tools/packages/assemble.ts).
const { src, dest } = require('gulp');

function copyIcons() {
	return src(['nodes/**/*.svg', 'credentials/**/*.svg'], { base: '.', encoding: false }).pipe(
		dest('dist'),
	);
}

exports['build:assets'] = copyIcons;
exports.default = exports['build:assets'];
