// Translate button on the demo page
function translateGreeting() {
	const settings = {
		async: true,
		crossDomain: true,
		url: 'https://text-translator-ai.p.rapidapi.com/translate',
		method: 'POST',
		headers: {
			'x-rapidapi-key': 'SIGN-UP-FOR-KEY',
			'x-rapidapi-host': 'text-translator-ai.p.rapidapi.com',
			'Content-Type': 'application/json'
		},
		processData: false,
		data: JSON.stringify({text: 'Good evening', source: 'en', target: 'fr'})
	};

	$.ajax(settings).done(function (response) {
		console.log(response);
	});
}
