import type { IDataObject, INodeProperties } from 'n8n-workflow';
import type { OperationDefinition, OperationItem } from '../../actionNode/operation';
import { dataToSendFields, shownForDefineBelow } from '../../fields/builders';
import { mappedFrom, optionalString, readChecked } from '../../fields/parameters';
import { checkLatitude, checkLongitude } from '../../fields/validation';
import { freeFormFields, readRecipient, recipientFields, sendFreeForm } from '../send';

const latitude: INodeProperties = {
	displayName: 'Latitude',
	name: 'latitude',
	type: 'number',
	typeOptions: { minValue: -90, maxValue: 90, numberPrecision: 6 },
	required: true,
	default: 0,
	description: 'From -90 (south) to 90 (north)',
};

const longitude: INodeProperties = {
	displayName: 'Longitude',
	name: 'longitude',
	type: 'number',
	typeOptions: { minValue: -180, maxValue: 180, numberPrecision: 6 },
	required: true,
	default: 0,
	description: 'From -180 (west) to 180 (east)',
};

const placeName: INodeProperties = {
	displayName: 'Name',
	name: 'locationName',
	type: 'string',
	default: '',
	placeholder: 'e.g. Central Station',
	description: 'The name of the place. Locations are static: live location is not supported.',
};

const address: INodeProperties = {
	displayName: 'Address',
	name: 'locationAddress',
	type: 'string',
	default: '',
	placeholder: 'e.g. 1 Station Square',
	description: 'The address of the place',
};

const latitudeRef = mappedFrom(latitude, 'latitude');
const longitudeRef = mappedFrom(longitude, 'longitude');
const placeNameRef = mappedFrom(placeName, 'name');
const addressRef = mappedFrom(address, 'address');

export const sendLocation: OperationDefinition = {
	value: 'sendLocation',
	name: 'Send Location',
	action: 'Send a location',
	description: "Send a static location, inside the customer's 24-hour window",
	properties: [
		...dataToSendFields({ required: ['to', 'latitude', 'longitude'], optional: ['name', 'address'] }),
		...recipientFields({ withDataToSend: true }),
		...shownForDefineBelow([latitude, longitude, placeName, address]),
		...freeFormFields(),
	],
	async execute(item: OperationItem) {
		const to = readRecipient(item);
		const location: IDataObject = {
			latitude: readChecked(item, latitudeRef, checkLatitude, undefined),
			longitude: readChecked(item, longitudeRef, checkLongitude, undefined),
		};
		const name = optionalString(item, placeNameRef);
		const street = optionalString(item, addressRef);
		if (name !== undefined) location.name = name;
		if (street !== undefined) location.address = street;
		return await sendFreeForm(item, to, { message_type: 'location', location });
	},
};
