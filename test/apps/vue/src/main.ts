import { createApp } from 'vue';
import 'fx-sdk';
import App from './App.vue';

createApp(App).mount('#app');
