(function(){
 function each(l,f){Array.prototype.forEach.call(l,f)}
 function el(tag,text,cls){var e=document.createElement(tag);if(text!=null)e.textContent=text;if(cls)e.className=cls;return e}
 function hex(n){var s=n.toString(16);while(s.length<4)s='0'+s;return '0x'+s}
 function shown(e){return e&&e.getClientRects().length>0}
 // into scrolls box (a scroll container) so that e is inside it, a third down when it moves.
 function into(box,e){
  if(!box||!e)return;
  var b=box.getBoundingClientRect(),r=e.getBoundingClientRect();
  if(box.scrollHeight>box.clientHeight+1&&(r.top<b.top||r.bottom>b.top+box.clientHeight))box.scrollTop+=r.top-b.top-box.clientHeight/3;
  if(box.scrollWidth>box.clientWidth+1&&(r.left<b.left||r.right>b.left+box.clientWidth))box.scrollLeft+=r.left-b.left-40;
 }
 var pad=0;
 // wire links the views of one message; a message drawn later (the reference's lazy.go) is
 // wired when drawn.
 function wire(sec){
  var data={fields:{},anchors:{}},js=sec.querySelector('script.kg-detail');
  if(js){try{data=JSON.parse(js.textContent)}catch(e){}}
  var panel=sec.querySelector('.detail'),side=sec.querySelector('.side'),hexpres=sec.querySelectorAll('pre.hex');
  var on=[],sel=null,closed=false;
  function paired(){return side&&getComputedStyle(side.parentNode).display==='grid'}
  // stacked: the grid above the tree, the panel and the dump sticky beside them (site.Fit).
  function stacked(){return !!side&&getComputedStyle(side).display==='contents'}
  function clear(){each(on,function(e){e.classList.remove('kg-hl');e.classList.remove('kg-sel');e.classList.remove('on')});on=[]}
  function room(){
   // The sheet at the bottom of a narrow screen: the page gets room under it.
   var h=0;each(document.querySelectorAll('section.msg .detail'),function(d){if(!d.classList.contains('empty')&&getComputedStyle(d).position==='fixed')h=Math.max(h,Math.ceil(d.getBoundingClientRect().height)+8)});
   if(h!==pad){pad=h;document.body.style.paddingBottom=h?h+'px':''}
  }
  function show(p){
   if(!panel)return;
   var f=p===null?null:data.fields[p],pair=paired();
   if(!f&&!pair||!pair&&p!==sel||closed){panel.classList.add('empty');panel.textContent='';room();return}
   panel.classList.remove('empty');
   panel.textContent='';
   var head=el('div',null,'dhead');
   var dp=el('div',f?f.d||f.p:'The detail panel','dpath');
   if(f)dp.setAttribute('data-path',f.p);
   head.appendChild(dp);
   var x=el('button','\u00d7','dclose');x.type='button';x.setAttribute('aria-label','Close the detail panel');
   x.addEventListener('click',function(ev){ev.stopPropagation();closed=true;panel.classList.add('closed');sel=null;mark(null)});
   head.appendChild(x);
   panel.appendChild(head);
   if(!f){panel.appendChild(el('p','Point at a field in the grid or a row of the tree, or click one to keep it here.','dnone'));room();return}
   var dl=el('dl');
   function row(k,v,node){if(!v&&!node)return;dl.appendChild(el('dt',k));var dd=el('dd',node?null:v);if(node)dd.appendChild(node);dl.appendChild(dd)}
   var last=(f.d||f.p).split(/[.\u203a]/).pop().trim();if(f.n&&f.n!==last&&last.indexOf(f.n)!==0)row('Name',f.n);row('Type',f.t);
   row('Bytes',hex(f.o)+' (byte '+f.o+'), '+(f.l===1?'1 byte':f.l+' bytes'));
   row('Value',f.v);row('About',f.a);
   var pre=data.anchors[f.s];
   if(f.L&&pre){var a=el('a',f.s+':'+f.L);a.href='#'+pre+f.L;row('Schema',null,a)}else if(f.s){row('Schema',f.s)}
   panel.appendChild(dl);
   room();
  }
  // reveal brings into view what goes with the field the reader points at in from (a
  // figure): its tree row and its bytes inside the pane, or its grid box on the page.
  function reveal(from,scrollPage){
   var pair=paired();
   if(pair)each(hexpres,function(h){var b=h.querySelector('.on');if(b&&shown(h))into(h,b)});
   var row=sec.querySelector('svg.kg-tree .node.kg-hl');
   var tfig=row&&row.closest('figure');
   if(row&&from!==tfig&&(pair||scrollPage))into(tfig,row.querySelector('text')||row);
   if(from&&from.querySelector('svg.kg-tree')&&pair){
    var g=null;each(sec.querySelectorAll('svg.kg-grid .kg-hl'),function(e){if(!g&&shown(e))g=e});
    if(g)into(g.closest('figure'),g);
   }
   // A click or a key brings the pair onto the screen when it is partly off it.
   if(scrollPage&&pair&&!stacked()){var q=side.parentNode.getBoundingClientRect();if(q.top<-1||q.bottom>innerHeight+1)side.parentNode.scrollIntoView({block:q.height>innerHeight?'start':'nearest'})}
   if(scrollPage&&!pair&&from&&from.querySelector('svg.kg-grid')){
    // The sheet covers the screen's bottom: the selected box and the rows after it stay above.
    var g=null;each(sec.querySelectorAll('svg.kg-grid .kg-sel'),function(e){if(!g&&shown(e))g=e});
    if(g){var r=g.getBoundingClientRect(),avail=innerHeight-pad;if(r.bottom>avail-100||r.top<0)window.scrollBy(0,r.top-avail/4)}
   }
  }
  function mark(p,from,scrollPage){
   clear();
   if(p===null){show(null);return}
   var boxed=false,lo=-1,hi=-1;
   each(sec.querySelectorAll('[data-path]'),function(e){
    if(e.getAttribute('data-path')!==p||e.closest('.detail'))return;
    e.classList.add('kg-hl');if(p===sel)e.classList.add('kg-sel');on.push(e);
    if(e.closest('svg.kg-grid'))boxed=true;
    var o=e.getAttribute('data-offset'),n=e.getAttribute('data-length');
    if(o===null||n===null)return;
    o=+o;n=+n;if(lo<0){lo=o;hi=o+n}
    for(var i=o;i<o+n;i++)each(sec.querySelectorAll('pre.hex [data-o="'+i+'"]'),function(b){if(b.className.indexOf('on')<0){b.classList.add('on');on.push(b)}});
   });
   // A tree row with no box of its own (an array, a struct) lights the boxes of its bytes.
   if(!boxed&&lo>=0)each(sec.querySelectorAll('svg.kg-grid g.field[data-offset]'),function(g){
    var o=+g.getAttribute('data-offset'),n=+g.getAttribute('data-length');
    if(o<hi&&o+Math.max(n,1)>lo){g.classList.add('kg-hl');on.push(g)}
   });
   show(p);reveal(from,scrollPage);
  }
  function target(ev){var g=ev.target.closest?ev.target.closest('figure.live [data-path]'):null;return g&&sec.contains(g)?g:null}
  sec.addEventListener('mouseover',function(ev){var g=target(ev);if(g)mark(g.getAttribute('data-path'),g.closest('figure'),false);else mark(sel)});
  sec.addEventListener('mouseleave',function(){mark(sel)});
  sec.addEventListener('click',function(ev){
   if(ev.target.closest&&ev.target.closest('.detail'))return;
   var g=target(ev);
   if(g){var p=g.getAttribute('data-path');sel=sel===p?null:p;closed=false;if(panel)panel.classList.remove('closed');mark(sel===null?p:sel,g.closest('figure'),true);return}
   if(ev.target.closest&&ev.target.closest('figure.live')){sel=null;mark(null)}
  });
  addEventListener('resize',function(){mark(sel)});
  show(null);
  // Keys are taken at the section, so a view drawn in it later has them too.
  sec.addEventListener('keydown',function(ev){
    var fig=ev.target.closest?ev.target.closest('figure.live'):null;
    if(!fig||!sec.contains(fig))return;
    var list=fig.querySelectorAll('svg [data-path]'),i=-1,k=ev.key;
    if(!list.length)return;
    for(var j=0;j<list.length;j++)if(list[j].getAttribute('data-path')===sel){i=j;break}
    if(k==='ArrowRight'||k==='ArrowDown')i=Math.min(i+1,list.length-1);
    else if(k==='ArrowLeft'||k==='ArrowUp')i=Math.max(i-1,0);
    else if(k==='Home')i=0;else if(k==='End')i=list.length-1;
    else if(k==='Escape'){sel=null;mark(null);return}
    else return;
    ev.preventDefault();
    var g=list[i];sel=g.getAttribute('data-path');closed=false;if(panel)panel.classList.remove('closed');mark(sel,fig,true);
    if(paired()&&!stacked()&&fig.closest('.side'))into(fig,g);else if(g.scrollIntoView)g.scrollIntoView({block:'nearest',inline:'nearest'});
  });
 }
 each(document.querySelectorAll('section.msg'),function(sec){if(!sec.querySelector(':scope>.kg-later'))wire(sec)});
 window.kgWire=wire;
})();
