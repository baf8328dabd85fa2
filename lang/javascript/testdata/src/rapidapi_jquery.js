const settings = {
	async: true,
	crossDomain: true,
	url: 'https://translate-plus.p.rapidapi.com/translate',
	method: 'POST',
	headers: {
		'x-rapidapi-key': 'SIGN-UP-FOR-KEY',
		'x-rapidapi-host': 'translate-plus.p.rapidapi.com',
		'Content-Type': 'application/json'
	},
	processData: false,
	data: JSON.stringify({
		text: 'Hello, how are you?',
		source: 'en',
		target: 'fr'
	})
};

$.ajax(settings).done(function (response) {
	console.log(response);
});
