// Copies the static files n8n loads next to the compiled nodes and credentials:
// SVG icons (light and dark) and the codex JSON of each node.
const { src, dest, series } = require('gulp');

function copyIcons() {
	return src(['nodes/**/*.svg', 'credentials/**/*.svg'], { base: '.', encoding: false }).pipe(
		dest('dist'),
	);
}

function copyCodex() {
	return src(['nodes/**/*.node.json'], { base: '.' }).pipe(dest('dist'));
}

exports['build:assets'] = series(copyIcons, copyCodex);
exports.default = exports['build:assets'];
