const url = 'https://text-translator-ai.p.rapidapi.com/languages';
const options = {
	method: 'GET',
	headers: {
		'x-rapidapi-key': 'SIGN-UP-FOR-KEY',
		'x-rapidapi-host': 'text-translator-ai.p.rapidapi.com'
	}
};

try {
	const response = await fetch(url, options);
	const result = await response.text();
	console.log(result);
} catch (error) {
	console.error(error);
}
