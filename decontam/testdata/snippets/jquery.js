const settings = {
	async: true,
	crossDomain: true,
	url: 'https://translate-it.p.rapidapi.com/translate',
	method: 'POST',
	headers: {
		'x-rapidapi-key': 'SIGN-UP-FOR-KEY',
		'x-rapidapi-host': 'translate-it.p.rapidapi.com',
		'Content-Type': 'application/json'
	},
	processData: false,
	data: JSON.stringify({text: 'Good morning', target: 'pt'})
};

$.ajax(settings).done(function (response) {
	console.log(response);
});
