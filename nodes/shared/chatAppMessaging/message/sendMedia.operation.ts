import type { IDataObject, INodeProperties } from 'n8n-workflow';
import type { OperationDefinition, OperationItem } from '../../actionNode/operation';
import type { Item } from '../../execution';
import { readAdditionalFields, readJsonOption } from '../../fields/body';
import {
	additionalFieldsCollection,
	AUTO_MAP_INPUT_DATA,
	DATA_TO_SEND,
	dataToSendFields,
	shownForDefineBelow,
} from '../../fields/builders';
import { isAutoMapped, mappedFrom, optionalString, readChecked } from '../../fields/parameters';
import { type Checked, checkHttpUrl } from '../../fields/validation';
import { freeFormFields, readRecipient, recipientFields, sendFreeForm } from '../send';

const MEDIA_TYPES = ['audio', 'file', 'image', 'video'];

const mediaType: INodeProperties = {
	displayName: 'Media Type',
	name: 'mediaType',
	type: 'options',
	options: [
		{ name: 'Audio', value: 'audio' },
		{ name: 'File', value: 'file' },
		{ name: 'Image', value: 'image' },
		{ name: 'Video', value: 'video' },
	],
	default: 'image',
	description: 'What kind of media the URL points to',
};

const mediaUrl: INodeProperties = {
	displayName: 'Media URL',
	name: 'mediaUrl',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. https://example.com/photo.jpg',
	description: 'A public http or https address the service fetches the media from',
};

const EXTRA_MEDIA_FIELD = 'Extra Media Fields (JSON)';

/** In "Map Automatically" mode the input item gives them; the listed options are then hidden. */
const hiddenWhenMapped = { hide: { [`/${DATA_TO_SEND}`]: [AUTO_MAP_INPUT_DATA] } };
const caption: INodeProperties = {
	displayName: 'Caption',
	name: 'caption',
	type: 'string',
	default: '',
	description: 'Text shown with the media (sent as caption in the media object)',
	displayOptions: hiddenWhenMapped,
};
const fileName: INodeProperties = {
	displayName: 'File Name',
	name: 'fileName',
	type: 'string',
	default: '',
	placeholder: 'e.g. invoice.pdf',
	description: 'The name the recipient sees (sent as filename in the media object)',
	displayOptions: hiddenWhenMapped,
};

/** Caption, File Name and Extra Media Fields go into the media object, next to its url. */
const mediaAdditionalFields = additionalFieldsCollection([
	caption,
	{
		displayName: EXTRA_MEDIA_FIELD,
		name: 'extraMedia',
		type: 'json',
		default: '{}',
		description: 'Fields merged into the media object as given, for fields this node does not list',
	},
	fileName,
]);

const mediaTypeRef = mappedFrom(mediaType, 'media_type');
const mediaUrlRef = mappedFrom(mediaUrl, 'media_url');

function checkMediaType(value: unknown): Checked<string> {
	return typeof value === 'string' && MEDIA_TYPES.includes(value)
		? { ok: true, value }
		: { ok: false, problem: `expected one of ${MEDIA_TYPES.join(', ')}` };
}

/** Caption and file name from Additional Fields, or in "Map Automatically" mode from the input item. */
function readMediaObject(item: Item, url: string): IDataObject {
	const additional = readAdditionalFields(item);
	const media: IDataObject = {};
	const given = isAutoMapped(item)
		? {
				caption: optionalString(item, mappedFrom(caption, 'caption')),
				filename: optionalString(item, mappedFrom(fileName, 'filename')),
			}
		: { caption: additional.caption, filename: additional.fileName };
	if (typeof given.caption === 'string' && given.caption !== '') media.caption = given.caption;
	if (typeof given.filename === 'string' && given.filename !== '') media.filename = given.filename;
	return { ...media, ...readJsonOption(item, EXTRA_MEDIA_FIELD, additional.extraMedia), url };
}

export const sendMedia: OperationDefinition = {
	value: 'sendMedia',
	name: 'Send Media',
	action: 'Send an image, video, audio or file',
	description: "Send an image, video, audio or file by URL, inside the customer's 24-hour window",
	properties: [
		...dataToSendFields({ required: ['to', 'media_type', 'media_url'], optional: ['caption', 'filename'] }),
		...recipientFields({ withDataToSend: true }),
		...shownForDefineBelow([mediaType, mediaUrl]),
		...freeFormFields(mediaAdditionalFields),
	],
	async execute(item: OperationItem) {
		const to = readRecipient(item);
		const type = readChecked(item, mediaTypeRef, checkMediaType);
		const url = readChecked(item, mediaUrlRef, checkHttpUrl);
		const payload: IDataObject = { message_type: type, [type]: readMediaObject(item, url) };
		return await sendFreeForm(item, to, payload);
	},
};
